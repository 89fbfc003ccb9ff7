import { describe, expect, it } from 'vitest';
import { ProgressBar, type ProgressOutput } from './progress.ts';

/** A stream that records what was written, and a clock the test moves by hand. */
function setup(options: { isTTY?: boolean; columns?: number } = {}) {
  const written: string[] = [];
  const out: ProgressOutput = { write: (text: string) => written.push(text), ...options };
  const clock = { ms: 1_000 };
  const bar = new ProgressBar('hospital.json', out, () => clock.ms);
  return { written, clock, bar };
}

describe('ProgressBar', () => {
  it('shows bytes of the total, the share read, MB/s and records per second', () => {
    expect(ProgressBar.line('h.json', 5e6, 20e6, 3_000, 2)).toBe(
      'h.json [#######.....................]  25% 5.0/20.0 MB 2.5 MB/s, 1,500 records/s',
    );
  });

  it('shows the bytes alone when the size is unknown (a download without a length)', () => {
    expect(ProgressBar.line('https://h.example/mrf.json', 12.34e6, null, 10, 0.5)).toBe(
      'https://h.example/mrf.json 12.3 MB 24.7 MB/s, 20 records/s',
    );
  });

  it('outside a terminal prints the first figures at once, then a line every 5 s, then the last', () => {
    const { written, clock, bar } = setup();
    bar.update(1e6, 10e6, 100);
    clock.ms += 1_000;
    bar.update(2e6, 10e6, 200);
    clock.ms += 4_100;
    bar.update(6e6, 10e6, 600);
    clock.ms += 900;
    bar.update(10e6, 10e6, 1_000);
    bar.done();
    expect(written).toEqual(
      [
        'hospital.json [###.........................]  10% 1.0/10.0 MB',
        'hospital.json [#################...........]  60% 6.0/10.0 MB 1.2 MB/s, 118 records/s',
        'hospital.json [############################] 100% 10.0/10.0 MB 1.7 MB/s, 167 records/s',
      ].map((line) => `${line}\n`),
    );
  });

  it('does not repeat the last line when it was just printed', () => {
    const { written, bar } = setup();
    bar.update(10e6, 10e6, 5);
    bar.done();
    expect(written).toHaveLength(1);
  });

  it('on a terminal redraws one line in place, cut to its width, and ends it when done', () => {
    const { written, clock, bar } = setup({ isTTY: true, columns: 41 });
    bar.update(0, 4e6, 0);
    clock.ms += 50;
    bar.update(1e6, 4e6, 10);
    clock.ms += 60;
    bar.update(2e6, 4e6, 20);
    bar.done();
    expect(written).toEqual([
      `\r${'hospital.json [............................]'.slice(0, 40)}`,
      `\r${'hospital.json [##############..............]'.slice(0, 40)}`,
      '\n',
    ]);
  });

  it('ends its line once, however often it is told it is done (before a notice, and after)', () => {
    const { written, bar } = setup({ isTTY: true, columns: 41 });
    bar.update(1e6, 1e6, 10);
    bar.done();
    bar.done();
    expect(written).toEqual([
      `\r${'hospital.json [############################]'.slice(0, 40)}`,
      '\n',
    ]);
  });

  it('gives a file hashed before it is read a line of its own, timed apart from the read', () => {
    const { written, clock, bar } = setup();
    bar.update(5e6, 10e6, 0, 'checking');
    clock.ms += 500;
    bar.update(10e6, 10e6, 0, 'checking');
    clock.ms += 100;
    bar.update(1e6, 10e6, 100);
    clock.ms += 2_000;
    bar.update(10e6, 10e6, 1_000);
    bar.done();
    expect(written).toEqual(
      [
        'hospital.json (checking for changes) [##############..............]  50% 5.0/10.0 MB',
        'hospital.json (checking for changes) [############################] 100% 10.0/10.0 MB 20.0 MB/s',
        'hospital.json [###.........................]  10% 1.0/10.0 MB',
        'hospital.json [############################] 100% 10.0/10.0 MB 5.0 MB/s, 500 records/s',
      ].map((line) => `${line}\n`),
    );
  });

  it('on a terminal ends the hashing line before the read draws its own', () => {
    const { written, clock, bar } = setup({ isTTY: true, columns: 121 });
    bar.update(4e6, 4e6, 0, 'checking');
    clock.ms += 200;
    bar.update(4e6, 4e6, 10);
    bar.done();
    expect(written).toEqual([
      `\r${'hospital.json (checking for changes) [############################] 100% 4.0/4.0 MB'.padEnd(120)}`,
      '\n',
      `\r${'hospital.json [############################] 100% 4.0/4.0 MB'.padEnd(120)}`,
      '\n',
    ]);
  });

  it('prints nothing for a run that read nothing', () => {
    const { written, bar } = setup({ isTTY: true });
    bar.done();
    expect(written).toEqual([]);
  });
});
