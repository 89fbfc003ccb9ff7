/** Where the bar is drawn: standard error, or any stream with the same shape. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 28;
/** Between redraws on a terminal, and between lines elsewhere (CI, a pipe, a log file). */
const TTY_INTERVAL_MS = 100;
const LOG_INTERVAL_MS = 5000;

/**
 * A one-line progress bar: bytes read of the total, MB/s and records per second. On a terminal it
 * redraws in place; elsewhere it prints a line at the start, every 5 s and at the end, so a log
 * of a short run still shows what was read.
 */
export class ProgressBar {
  private readonly started: number;
  private lastPrint = Number.NEGATIVE_INFINITY;
  private last: { bytes: number; total: number | null; records: number } | null = null;
  private printedLast = false;
  private finished = false;

  constructor(
    private readonly label: string,
    private readonly out: ProgressOutput = process.stderr,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  update(bytes: number, total: number | null, records: number): void {
    this.last = { bytes, total, records };
    this.printedLast = false;
    const now = this.now();
    if (now - this.lastPrint < (this.out.isTTY ? TTY_INTERVAL_MS : LOG_INTERVAL_MS)) return;
    this.print(now);
  }

  /** Draws the final figures (unless just drawn) and ends the line; once. */
  done(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.last && !this.printedLast) this.print(this.now());
    if (this.out.isTTY && this.last) this.out.write('\n');
  }

  /** The bar's text for these figures, `seconds` after the start. */
  static line(
    label: string,
    bytes: number,
    total: number | null,
    records: number,
    seconds: number,
  ): string {
    const mb = bytes / 1e6;
    const rate =
      seconds > 0
        ? `${(mb / seconds).toFixed(1)} MB/s, ${Math.round(records / seconds).toLocaleString('en-US')} records/s`
        : '';
    const fraction = total ? Math.min(1, bytes / total) : 0;
    const bar = total
      ? `[${'#'.repeat(Math.round(fraction * BAR_WIDTH)).padEnd(BAR_WIDTH, '.')}] ${(fraction * 100).toFixed(0).padStart(3)}% `
      : '';
    const size = total ? `${mb.toFixed(1)}/${(total / 1e6).toFixed(1)} MB` : `${mb.toFixed(1)} MB`;
    return `${label} ${bar}${size} ${rate}`.trimEnd();
  }

  private print(now: number): void {
    if (!this.last) return;
    this.lastPrint = now;
    this.printedLast = true;
    const { bytes, total, records } = this.last;
    const line = ProgressBar.line(this.label, bytes, total, records, (now - this.started) / 1000);
    if (this.out.isTTY) {
      const width = this.out.columns ? this.out.columns - 1 : 120;
      this.out.write(`\r${line.padEnd(width).slice(0, width)}`);
    } else this.out.write(`${line}\n`);
  }
}
