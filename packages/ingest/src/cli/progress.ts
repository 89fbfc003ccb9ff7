/**
 * A one-line progress bar on standard error: bytes read of the total, MB/s and records per
 * second. On a terminal it redraws in place; elsewhere (CI, a pipe) it prints a line every 5 s.
 */
export class ProgressBar {
  private readonly started = performance.now();
  private lastPrint = 0;
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(private readonly label: string) {}

  update(bytes: number, total: number | null, records: number): void {
    const now = performance.now();
    if (now - this.lastPrint < (this.tty ? 100 : 5000)) return;
    this.lastPrint = now;
    const seconds = (now - this.started) / 1000;
    const mb = bytes / 1e6;
    const rate =
      seconds > 0
        ? `${(mb / seconds).toFixed(1)} MB/s, ${Math.round(records / seconds).toLocaleString('en-US')} records/s`
        : '';
    const width = 28;
    const fraction = total ? Math.min(1, bytes / total) : 0;
    const bar = total
      ? `[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '.')}] ${(fraction * 100).toFixed(0).padStart(3)}% `
      : '';
    const size = total ? `${mb.toFixed(1)}/${(total / 1e6).toFixed(1)} MB` : `${mb.toFixed(1)} MB`;
    const line = `${this.label} ${bar}${size} ${rate}`;
    if (this.tty)
      process.stderr.write(
        `\r${line.padEnd(100).slice(0, process.stderr.columns ? process.stderr.columns - 1 : 120)}`,
      );
    else process.stderr.write(`${line}\n`);
  }

  done(): void {
    if (this.tty) process.stderr.write('\n');
  }
}
