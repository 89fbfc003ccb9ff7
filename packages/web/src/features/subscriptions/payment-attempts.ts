/**
 * The Idempotency-Key of each checkout attempt (issue 5 point 5). An attempt is one set of
 * payment details for one order; the key is reused only to retry that same attempt after an
 * outcome nobody knows (a lost connection, a server error, a pending order), so the server
 * answers the retry with the first request's result instead of charging again. Any change of
 * details, or a retry after a known outcome such as a decline, is a new attempt with a new key.
 *
 * Kept in memory only: the fingerprint holds card details, which are never stored.
 */
export class PaymentAttempts {
  private last: { fingerprint: string; key: string; settled: boolean } | null = null;

  constructor(private readonly newKey: () => string = () => crypto.randomUUID()) {}

  /** The key to send with a request whose body is `fingerprint`. */
  keyFor(fingerprint: string): string {
    const last = this.last;
    if (last && last.fingerprint === fingerprint && !last.settled) return last.key;
    const key = this.newKey();
    this.last = { fingerprint, key, settled: false };
    return key;
  }

  /** Records how the last request ended: `settled` when its outcome is known. */
  finish(settled: boolean): void {
    if (this.last) this.last = { ...this.last, settled };
  }
}
