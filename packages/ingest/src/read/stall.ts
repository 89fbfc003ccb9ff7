/** How long a server may keep a download waiting: for its answer, or for the next part of it. */
export const DOWNLOAD_STALL_MS = 60_000;
/**
 * What a server must send in each stall time we wait on it (64 KB a minute). Less, and it is
 * given up as quiet: a server that sends a byte now and then would otherwise hold an ingest, and
 * the refresh of every hospital behind it, for as long as it likes.
 */
export const DOWNLOAD_STALL_BYTES = 64 * 1024;

/**
 * Aborts a download whose server goes quiet, or nearly: armed while we wait on the network (for
 * the answer, for each next part of the body), paused while the reader works on what came. The
 * time waited adds up, part after part, until the server has sent `bytes`; it then starts again.
 * Without it a server that accepts the connection and sends nothing, or a byte now and then,
 * held an ingest for good.
 */
export class DownloadStall {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private armedAt: number | null = null;
  /** Milliseconds waited on the server, and bytes it sent, since it last sent `bytes`. */
  private waited = 0;
  private received = 0;
  /** Whether a part of the body came since the answer. */
  private flowing = false;
  /** True once the server was quiet for `ms` and the download was aborted for it. */
  stalled = false;

  constructor(
    readonly ms: number = DOWNLOAD_STALL_MS,
    readonly bytes: number = DOWNLOAD_STALL_BYTES,
  ) {}

  /** The signal for `fetch`: aborted by a stall, or by `outer` (the caller cancelling). */
  signal(outer?: AbortSignal): AbortSignal {
    return outer ? AbortSignal.any([outer, this.controller.signal]) : this.controller.signal;
  }

  /** Starts (or goes on with) the wait for the server. */
  arm(): void {
    this.pause();
    this.armedAt = performance.now();
    this.timer = setTimeout(
      () => {
        this.stalled = true;
        this.controller.abort();
      },
      Math.max(0, this.ms - this.waited),
    );
    // A timer left armed by a response set aside must not keep the process alive.
    this.timer.unref();
  }

  /**
   * Stops waiting: a part of `received` bytes came, or the download is over. The first part of
   * the body starts the count afresh, as the answer did: a server slow to begin (a file made
   * on demand) is judged from when it begins.
   */
  pause(received = 0): void {
    clearTimeout(this.timer);
    if (this.armedAt !== null) this.waited += performance.now() - this.armedAt;
    this.armedAt = null;
    this.received += received;
    const first = received > 0 && !this.flowing;
    if (received > 0) this.flowing = true;
    if (first || this.received >= this.bytes) this.restart();
  }

  /** The server answered: the wait for its body starts afresh. */
  answered(): void {
    this.pause();
    this.flowing = false;
    this.restart();
  }

  private restart(): void {
    this.waited = 0;
    this.received = 0;
  }

  /** "60 s", "0.2 s": the wait, for messages. */
  get words(): string {
    return `${this.ms / 1000} s`;
  }

  /** Why the download was given up, for messages. */
  get why(): string {
    return this.received === 0
      ? `the server sent nothing for ${this.words}`
      : `the server sent ${this.received} bytes in ${this.words} of waiting, less than the ` +
          `${this.bytes / 1024} KB it must`;
  }
}
