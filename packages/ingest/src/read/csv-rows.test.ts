import { describe, expect, it } from 'vitest';
import { CsvRowSplitter, MAX_QUOTED_CHARS, MAX_ROW_CHARS } from './csv-rows.ts';

function split(chunks: string[], strays: number[] = []): [string[], number][] {
  const rows: [string[], number][] = [];
  const splitter = new CsvRowSplitter(
    (fields, line) => rows.push([fields, line]),
    (line) => strays.push(line),
  );
  for (const c of chunks) splitter.push(c);
  splitter.end();
  return rows;
}

/** The text cut into chunks of `size` characters. */
function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
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
      expect(split(chunks(text, size))).toEqual(expected);
    }
  });

  it('gives the text of a row that holds a CR not followed by LF, whatever the chunks', () => {
    const mixed = 'a,b\r\nc\rd,e\n"f\rg",h\r\ni,j\r';
    for (let size = 1; size <= mixed.length; size++) {
      const rows: [string[], string | undefined][] = [];
      const splitter = new CsvRowSplitter((fields, _line, _end, text) => rows.push([fields, text]));
      for (const c of chunks(mixed, size)) splitter.push(c);
      splitter.end();
      expect(rows, `chunks of ${size}`).toEqual([
        [['a', 'b'], undefined],
        [['c\rd', 'e'], 'c\rd,e\n'],
        [['f\rg', 'h'], '"f\rg",h\r\n'],
        // The last CR ends the text: a CR read as the row's line end.
        [['i', 'j'], undefined],
      ]);
    }
  });

  it('reads a quote that never closes as text, and the rows after it as rows', () => {
    const strays: number[] = [];
    expect(split(['a,"b,c\nd,e,f\n'], strays)).toEqual([
      [['a', '"b', 'c'], 1],
      [['d', 'e', 'f'], 2],
    ]);
    expect(strays).toEqual([1]);
  });

  it('takes a quote for stray when its value closes lines later with text after it', () => {
    const strays: number[] = [];
    const text = 'a,"b\nc,"d",e\n"Big" toe,1\n';
    for (let size = 1; size <= text.length; size++) {
      strays.length = 0;
      expect(split(chunks(text, size), strays)).toEqual([
        [['a', '"b'], 1],
        [['c', 'd', 'e'], 2],
        // On one line, text after a closing quote is kept (a lenient read of `"Big" toe`).
        [['Big toe', '1'], 3],
      ]);
      expect(strays).toEqual([1]);
    }
  });

  it('reads a quote inside a quoted value that was not doubled as a quote, and says so', () => {
    // `"12" tube"`: the value's own quote, then the closing one; `"5" x 9" pad"` has two.
    const text = 'd,n\n"12" tube",1\n"5" x 9" pad",2\n"Big" toe,3\n"ok" ,4\n';
    for (let size = 1; size <= text.length; size++) {
      const inner: [number, string][] = [];
      const rows: [string[], number][] = [];
      const splitter = new CsvRowSplitter(
        (fields, line) => rows.push([fields, line]),
        undefined,
        undefined,
        (line, value) => inner.push([line, value]),
      );
      for (const c of chunks(text, size)) splitter.push(c);
      splitter.end();
      expect(rows).toEqual([
        [['d', 'n'], 1],
        [['12" tube', '1'], 2],
        [['5" x 9" pad', '2'], 3],
        // Text after the quote without one of its own: read as spreadsheets read it.
        [['Big toe', '3'], 4],
        [['ok ', '4'], 5],
      ]);
      expect(inner).toEqual([
        [2, '12" tube'],
        [3, '5" x 9" pad'],
      ]);
    }
  });

  it('reads a value quoted after blanks that follow its comma as the quoted value, and says so', () => {
    // Hand-written and some exported files put a space after each comma. Text after the closing
    // quote makes the value one written as it stands (`c, "8" tube`), and so does a quote that
    // never closes.
    const text = 'a, "99213", CPT\nb,\t "MRI, brain" ,x\nc, "8" tube,y\nd, "open,z\n';
    for (let size = 1; size <= text.length; size++) {
      const spaced: [number, string][] = [];
      const strays: number[] = [];
      const rows: [string[], number][] = [];
      const splitter = new CsvRowSplitter(
        (fields, line) => rows.push([fields, line]),
        (line) => strays.push(line),
        undefined,
        undefined,
        undefined,
        (line, value) => spaced.push([line, value]),
      );
      for (const c of chunks(text, size)) splitter.push(c);
      splitter.end();
      expect(rows, `chunks of ${size}`).toEqual([
        [['a', '99213', ' CPT'], 1],
        [['b', 'MRI, brain ', 'x'], 2],
        [['c', ' "8" tube', 'y'], 3],
        [['d', ' "open', 'z'], 4],
      ]);
      expect(spaced).toEqual([
        [1, '99213'],
        [2, 'MRI, brain '],
      ]);
      expect(strays).toEqual([4]);
    }
  });

  it('reads a `""` before a delimiter in a value that never closes as an inch mark and its closing quote', () => {
    // `"Catheter 8"",12`: a strict reader runs the value on past its comma, to a quote lines
    // later or none. A `""` that is not before a delimiter is left to the stray quote's reading.
    const text = 'd,n\n"Catheter 8"",12\n"Tube, 10"""" long"",13\n"stray,14\n"x"" y,15\n';
    for (let size = 1; size <= text.length; size++) {
      const inner: [number, string][] = [];
      const strays: number[] = [];
      const rows: [string[], number][] = [];
      const splitter = new CsvRowSplitter(
        (fields, line) => rows.push([fields, line]),
        (line) => strays.push(line),
        undefined,
        (line, value) => inner.push([line, value]),
      );
      for (const c of chunks(text, size)) splitter.push(c);
      splitter.end();
      expect(rows, `chunks of ${size}`).toEqual([
        [['d', 'n'], 1],
        [['Catheter 8"', '12'], 2],
        [['Tube, 10"" long"', '13'], 3],
        [['"stray', '14'], 4],
        [['"x"" y', '15'], 5],
      ]);
      expect(inner).toEqual([
        [2, 'Catheter 8"'],
        [3, 'Tube, 10"" long"'],
      ]);
      expect(strays).toEqual([4, 5]);
    }
  });

  it('reads a row short of the expected values again at its inch marks when that gives as many', () => {
    // Read strictly, `"Catheter 8""` runs on to the next quote, whose value's text is then read
    // as this one's: two values where there are three. A row whose value closes as CSV closes
    // (`"Tube 8"", 10 Fr"`) is as meant, though it holds a `""` before a comma too.
    const text = '"Catheter 8"","12345",x\n"Tube 8"", 10 Fr",y,z\n"Big 8"","1",x,"extra"\n';
    for (let size = 1; size <= text.length; size++) {
      const inner: [number, string][] = [];
      const rows: string[][] = [];
      const splitter = new CsvRowSplitter(
        (fields) => rows.push(fields),
        undefined,
        undefined,
        (line, value) => inner.push([line, value]),
      );
      splitter.expectRowWidth(3);
      for (const c of chunks(text, size)) splitter.push(c);
      splitter.end();
      expect(rows, `chunks of ${size}`).toEqual([
        ['Catheter 8"', '12345', 'x'],
        ['Tube 8", 10 Fr', 'y', 'z'],
        // Read again, four values for three: read as written, its quote said as before.
        ['Big 8","1', 'x', 'extra'],
      ]);
      expect(inner).toEqual([
        [1, 'Catheter 8"'],
        [3, 'Big 8","1'],
      ]);
    }
  });

  it('reads a short row at its inch marks only once told how many values rows have', () => {
    expect(split(['"Catheter 8"","12345",x\n'])).toEqual([[['Catheter 8","12345', 'x'], 1]]);
  });

  it('gives up on a quote after MAX_QUOTED_CHARS, holding no more than that', () => {
    // A stray quote on row 2, then more rows than the limit with no quote at all.
    const rowCount = Math.ceil(MAX_QUOTED_CHARS / 10) + 100;
    const body = Array.from({ length: rowCount }, (_, i) => `r${i},x,y\n`).join('');
    const strays: number[] = [];
    const rows = split(chunks(`h,i,j\n"stray,x,y\n${body}"late,x,y\n`, 65_536), strays);
    expect(rows).toHaveLength(rowCount + 3);
    expect(rows[1]).toEqual([['"stray', 'x', 'y'], 2]);
    expect(rows[2]).toEqual([['r0', 'x', 'y'], 3]);
    expect(rows.at(-1)).toEqual([['"late', 'x', 'y'], rowCount + 3]);
    expect(strays).toEqual([2, rowCount + 3]);
  });

  it('drops a row that runs past MAX_ROW_CHARS without a line end, and reads the rows after it', () => {
    const rows: [string[], number, number][] = [];
    const long: number[] = [];
    const splitter = new CsvRowSplitter(
      (fields, line, end) => rows.push([fields, line, end]),
      () => {},
      (line) => long.push(line),
    );
    const mib = 'x'.repeat(1 << 20);
    splitter.push('a,b\n"q\nq",');
    for (let i = 0; i <= MAX_ROW_CHARS >> 20; i++) splitter.push(mib);
    // Past the limit nothing of the row is held, however long it goes on.
    expect(splitter.pendingLength).toBe(0);
    splitter.push(mib);
    splitter.push('tail of it\nc,d\ne,');
    splitter.push('f\n');
    splitter.end();
    expect(long).toEqual([2]);
    const pushed = 4 + 6 + (MAX_ROW_CHARS >> 20) * (1 << 20) + (2 << 20) + 11;
    expect(rows).toEqual([
      [['a', 'b'], 1, 4],
      // The quoted line end inside the dropped row still counts.
      [['c', 'd'], 4, pushed + 4],
      [['e', 'f'], 5, pushed + 8],
    ]);
  });

  it('reports a row still running on at the end of the file', () => {
    const long: number[] = [];
    const splitter = new CsvRowSplitter(
      () => {},
      () => {},
      (line) => long.push(line),
    );
    splitter.push('a,b\n');
    for (let i = 0; i <= MAX_ROW_CHARS >> 20; i++) splitter.push('y'.repeat(1 << 20));
    splitter.end();
    expect(long).toEqual([2]);
  });
});
