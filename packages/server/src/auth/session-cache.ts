import type { SessionWithUser } from '@ratelens/db';

/** More sessions than this in the cache and it starts again: a bound on memory, not an LRU. */
const MAX_ENTRIES = 20_000;

interface Entry {
  at: number;
  session: Promise<SessionWithUser | undefined>;
}

/**
 * The sessions one server process looked up in the last `ttlMs`, so that a client's calls in quick
 * succession cost one lookup, not one each (a third of the round trips of a rate search). Ending a
 * session through this process forgets it at once; one ended through another instance is
 * honoured within `ttlMs`. Concurrent lookups of one session share a single query.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(
    id: string,
    load: (id: string) => Promise<SessionWithUser | undefined>,
  ): Promise<SessionWithUser | undefined> {
    if (this.ttlMs === 0) return load(id);
    const now = this.now();
    const cached = this.entries.get(id);
    if (cached && now - cached.at < this.ttlMs) return cached.session;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const session = load(id);
    this.entries.set(id, { at: now, session });
    // A failed lookup is not remembered: the next call asks the database again.
    session.catch(() => {
      if (this.entries.get(id)?.session === session) this.entries.delete(id);
    });
    return session;
  }

  forget(id: string): void {
    this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }
}
