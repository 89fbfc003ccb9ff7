/** How long a server may keep a download waiting: for its answer, or for the next part of it. */
export const DOWNLOAD_STALL_MS = 60_000;

/**
 * Aborts a download whose server goes quiet: armed while we wait on the network (for the answer,
 * for each next part of the body), paused while the reader works on what came. Without it a
 * server that accepts the connection and sends nothing held an ingest for good.
 */
export class DownloadStall {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  /** True once the server was quiet for `ms` and the download was aborted for it. */
  stalled = false;

  constructor(readonly ms: number = DOWNLOAD_STALL_MS) {}

  /** The signal for `fetch`: aborted by a stall, or by `outer` (the caller cancelling). */
  signal(outer?: AbortSignal): AbortSignal {
    return outer ? AbortSignal.any([outer, this.controller.signal]) : this.controller.signal;
  }

  /** Starts (or restarts) the wait for the server. */
  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.stalled = true;
      this.controller.abort();
    }, this.ms);
    // A timer left armed by a response set aside must not keep the process alive.
    this.timer.unref();
  }

  /** Stops waiting: the part came, or the download is over. */
  pause(): void {
    clearTimeout(this.timer);
  }

  /** "60 s", "0.2 s": the wait, for messages. */
  get words(): string {
    return `${this.ms / 1000} s`;
  }
}
