import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromCallerDirectory } from './caller-path.ts';

describe('fromCallerDirectory', () => {
  it('takes a relative path from the directory npm was run in', () => {
    const env = { INIT_CWD: '/home/ana/files' };
    expect(fromCallerDirectory('mrf.json', env)).toBe('/home/ana/files/mrf.json');
    expect(fromCallerDirectory('../x/mrf.csv.gz', env)).toBe('/home/ana/x/mrf.csv.gz');
    expect(fromCallerDirectory('./a.zip#b.csv', env)).toBe('/home/ana/files/a.zip#b.csv');
  });

  it('leaves URLs and absolute paths alone, and uses the process directory without npm', () => {
    const env = { INIT_CWD: '/home/ana/files' };
    for (const source of [
      'https://h.org/mrf.json',
      'http://localhost:8080/a',
      'ftp://h/a',
      '/data/mrf.json',
    ])
      expect(fromCallerDirectory(source, env)).toBe(source);
    expect(fromCallerDirectory('mrf.json', {})).toBe(path.resolve('mrf.json'));
  });
});
