import { describe, expect, it } from 'vitest';
import { CsvRowSplitter } from './csv-rows.ts';

function split(chunks: string[]): [string[], number][] {
  const rows: [string[], number][] = [];
  const splitter = new CsvRowSplitter((fields, line) => rows.push([fields, line]));
  for (const c of chunks) splitter.push(c);
  splitter.end();
  return rows;
}

describe('CsvRowSplitter', () => {
  const text = 'a,"b ""q"", c",d\r\n"multi\nline",,x\n\nlast,"",row';
  const expected: [string[], number][] = [
    [['a', 'b "q", c', 'd'], 1],
    [['multi\nline', '', 'x'], 2],
    [['last', '', 'row'], 5],
  ];

  it('splits quoted, escaped and multi-line fields and numbers rows by physical line', () => {
    expect(split([text])).toEqual(expected);
  });

  it('gives the same rows whatever the chunk boundaries', () => {
    for (let size = 1; size <= 7; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(split(chunks)).toEqual(expected);
    }
  });
});
