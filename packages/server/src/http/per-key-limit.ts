/**
 * How many of something each key (a user) has under way, in this process: take() refuses once a
 * key has `max`, and the function it returns gives the place back (once, however often called).
 */
export class PerKeyLimit {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  take(key: string): (() => void) | null {
    const count = this.counts.get(key) ?? 0;
    if (count >= this.max) return null;
    this.counts.set(key, count + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }

  /** How many `key` has under way. */
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}
