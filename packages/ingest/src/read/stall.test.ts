import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DownloadStall } from './stall.ts';

/** A wait on the server of `ms`, ended by a part of `bytes` (none: the answer). */
function wait(stall: DownloadStall, ms: number, bytes: number): void {
  stall.arm();
  vi.advanceTimersByTime(ms);
  if (!stall.stalled) stall.pause(bytes);
}

describe('DownloadStall', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets a server sending 64 KB in each stall time of waiting go on for ever', () => {
    const stall = new DownloadStall(1000, 64 * 1024);
    wait(stall, 10, 0);
    stall.answered();
    // 16 KB every 200 ms: 64 KB in 800 ms of waiting, 10 s of waiting in all.
    for (let part = 0; part < 50; part++) wait(stall, 200, 16 * 1024);
    expect(stall.stalled).toBe(false);
  });

  it('gives up a server that sends less than 64 KB in the stall time, however often', () => {
    const stall = new DownloadStall(1000, 64 * 1024);
    stall.answered();
    wait(stall, 100, 1024);
    for (let part = 0; part < 20 && !stall.stalled; part++) wait(stall, 100, 16);
    expect(stall.stalled).toBe(true);
    expect(stall.why).toMatch(
      /^the server sent \d+ bytes in 1 s of waiting, less than the 64 KB it must$/,
    );
  });

  it('does not count the time the reader works, nor a slow first part of the body', () => {
    const stall = new DownloadStall(1000, 64 * 1024);
    wait(stall, 900, 0);
    stall.answered();
    // A file made on demand: its first part after 900 ms, the next 900 ms later.
    wait(stall, 900, 1024);
    // The reader (or the database behind it) holds the part for a minute.
    vi.advanceTimersByTime(60_000);
    wait(stall, 900, 64 * 1024);
    expect(stall.stalled).toBe(false);
  });

  it('says a server that sent nothing for the stall time', () => {
    const stall = new DownloadStall(1000, 64 * 1024);
    stall.answered();
    wait(stall, 1000, 0);
    expect(stall.stalled).toBe(true);
    expect(stall.why).toBe('the server sent nothing for 1 s');
  });
});
