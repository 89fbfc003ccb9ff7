import type { ReadPhase } from '../load/ingest-file.ts';

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
 * of a short run still shows what was read. A file hashed before it is read (to tell whether it
 * changed) gets a bar of its own for that pass, ended before the read's starts.
 */
export class ProgressBar {
  private started: number;
  private phase: ReadPhase = 'reading';
  private lastPrint = Number.NEGATIVE_INFINITY;
  /** The latest figures, and when they came. */
  private last: { bytes: number; total: number | null; records: number; at: number } | null = null;
  private printedLast = false;
  private finished = false;

  constructor(
    private readonly label: string,
    private readonly out: ProgressOutput = process.stderr,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  update(bytes: number, total: number | null, records: number, phase: ReadPhase = 'reading'): void {
    if (phase !== this.phase) this.startPhase(phase);
    const now = this.now();
    this.last = { bytes, total, records, at: now };
    this.printedLast = false;
    if (now - this.lastPrint < (this.out.isTTY ? TTY_INTERVAL_MS : LOG_INTERVAL_MS)) return;
    this.print();
  }

  /** Draws the final figures (unless just drawn) and ends the line; once. */
  done(): void {
    if (this.finished) return;
    this.finished = true;
    this.endLine();
  }

  /** Ends the pass drawn so far on its own line, and times the next from now. */
  private startPhase(phase: ReadPhase): void {
    this.endLine();
    this.phase = phase;
    this.started = this.now();
    this.lastPrint = Number.NEGATIVE_INFINITY;
    this.last = null;
  }

  private endLine(): void {
    if (this.last && !this.printedLast) this.print();
    if (this.out.isTTY && this.last) this.out.write('\n');
  }

  /**
   * The bar's text for these figures, `seconds` after the start; records are left out while the
   * file is hashed (`checking`), when none are read.
   */
  static line(
    label: string,
    bytes: number,
    total: number | null,
    records: number,
    seconds: number,
    phase: ReadPhase = 'reading',
  ): string {
    const mb = bytes / 1e6;
    let rate = '';
    if (seconds > 0) {
      rate = `${(mb / seconds).toFixed(1)} MB/s`;
      if (phase === 'reading')
        rate += `, ${Math.round(records / seconds).toLocaleString('en-US')} records/s`;
    }
    const fraction = total ? Math.min(1, bytes / total) : 0;
    const bar = total
      ? `[${'#'.repeat(Math.round(fraction * BAR_WIDTH)).padEnd(BAR_WIDTH, '.')}] ${(fraction * 100).toFixed(0).padStart(3)}% `
      : '';
    const size = total ? `${mb.toFixed(1)}/${(total / 1e6).toFixed(1)} MB` : `${mb.toFixed(1)} MB`;
    const what = phase === 'checking' ? `${label} (checking for changes)` : label;
    return `${what} ${bar}${size} ${rate}`.trimEnd();
  }

  /** Draws the latest figures, timed when they came (not later, when a pass is ended). */
  private print(): void {
    if (!this.last) return;
    const { bytes, total, records, at } = this.last;
    this.lastPrint = at;
    this.printedLast = true;
    const seconds = (at - this.started) / 1000;
    const line = ProgressBar.line(this.label, bytes, total, records, seconds, this.phase);
    if (this.out.isTTY) {
      const width = this.out.columns ? this.out.columns - 1 : 120;
      this.out.write(`\r${line.padEnd(width).slice(0, width)}`);
    } else this.out.write(`${line}\n`);
  }
}
