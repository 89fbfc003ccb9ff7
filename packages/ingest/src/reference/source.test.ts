import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCbsaDelineation } from './cbsa.ts';
import { parseHcpcsLevel2 } from './hcpcs.ts';
import { openNadac, parseNadac } from './nadac.ts';
import { ReferenceFileError } from './errors.ts';
import { parseGpciFile, parseOppsCapFile, parseRvuFile } from './physician-fee-schedule.ts';
import { parseZipLocality } from './zip-locality.ts';
import {
  csvDelimiter,
  csvRecordStream,
  KeyedRecords,
  normaliseHeader,
  parseCsvRows,
  parseDecimal,
  readSource,
  referenceText,
  referenceTextChunks,
  REFERENCE_MAX_BYTES,
  RowProblems,
  sourceChunks,
  STREAMED_REFERENCE_MAX_BYTES,
} from './source.ts';

/** `text` (or bytes) cut into pieces of 1 to `most` units, the cuts drawn from `seed`. */
function pieces<T extends string | Buffer>(whole: T, seed: number, most = 7): T[] {
  const cut: T[] = [];
  let state = seed;
  for (let at = 0; at < whole.length;) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (state % most);
    cut.push(whole.slice(at, at + size) as T);
    at += size;
  }
  return cut;
}

async function* iterate<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield await Promise.resolve(item);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('reading a reference file from a URL', () => {
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/hcpcs.csv') {
        response.end('code,kind,long,short\nA0428,procedure,Ambulance service,Bls\n');
      } else if (request.url === '/endless.csv') {
        // No length announced: the reader must count.
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const send = () => {
          while (response.write(chunk));
          response.once('drain', send);
        };
        response.on('close', () => response.removeAllListeners('drain'));
        send();
      } else if (request.url === '/broken.csv') {
        // Half of what was announced, then the connection is lost.
        response.writeHead(200, { 'content-length': '2000' });
        response.write('code,kind,long,short\n'.repeat(40), () => response.destroy());
      } else if (request.url === '/empty.csv') {
        response.end();
      } else if (request.url === '/silent.csv') {
        // The connection is taken, and nothing is ever said.
      } else if (request.url === '/two-parts.csv') {
        response.writeHead(200);
        response.write('code,kind,long,short\n');
        setTimeout(() => response.end('A0428,procedure,Ambulance service,Bls\n'), 100);
      } else if (request.url === '/stalls.csv') {
        response.writeHead(200);
        response.write('code,kind,long,short\n');
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('parses a file served over HTTP', async () => {
    expect(await parseHcpcsLevel2(`${base}/hcpcs.csv`)).toEqual([
      {
        code: 'A0428',
        kind: 'procedure',
        longDescription: 'Ambulance service',
        shortDescription: 'Bls',
      },
    ]);
  });

  it('names the URL and the status of a failed download', async () => {
    await expect(parseHcpcsLevel2(`${base}/missing.csv`)).rejects.toThrow(
      `${base}/missing.csv: expected an HTTP 200 response; found HTTP 404`,
    );
  });

  it('stops a download past the size limit', async () => {
    await expect(readSource(`${base}/endless.csv`, 1_000_000)).rejects.toThrow(
      `${base}/endless.csv: expected a reference file of at most 1 MB; found more than that`,
    );
  });

  it('says when the connection is lost halfway through', async () => {
    await expect(readSource(`${base}/broken.csv`)).rejects.toThrow(
      new RegExp(
        `^${base}/broken\\.csv: expected a whole download; found it broke off after 840 bytes \\(`,
      ),
    );
  });

  it('gives up on a server that does not answer, or stops sending, for the stall time', async () => {
    await expect(readSource(`${base}/silent.csv`, REFERENCE_MAX_BYTES, 300)).rejects.toThrow(
      `${base}/silent.csv: expected a download; found no answer within 0.3 s`,
    );
    await expect(readSource(`${base}/stalls.csv`, REFERENCE_MAX_BYTES, 300)).rejects.toThrow(
      `${base}/stalls.csv: expected a whole download; found it broke off after 21 bytes (the server sent nothing for 0.3 s)`,
    );
  });

  it('says when nothing answers', async () => {
    // A port just released: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    await expect(parseHcpcsLevel2(`http://127.0.0.1:${port}/hcpcs.csv`)).rejects.toThrow(
      `http://127.0.0.1:${port}/hcpcs.csv: expected a download; found fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });

  it('says a port fetch refuses is one, in the words of the hospital ingest', async () => {
    // 6000 is X11's: fetch refuses it before connecting ("fetch failed (bad port)").
    await expect(readSource('http://127.0.0.1:6000/hcpcs.csv')).rejects.toThrow(
      'http://127.0.0.1:6000/hcpcs.csv: expected a download; found fetch refuses that port, ' +
        'one browsers block as kept for another protocol',
    );
  });

  it('says an empty download is empty', async () => {
    await expect(parseHcpcsLevel2(`${base}/empty.csv`)).rejects.toThrow(
      `${base}/empty.csv: expected a reference file; found an empty file`,
    );
  });

  it('streams a download as the reader asks, refusing it as it refuses one read whole', async () => {
    const chunks = await collect(sourceChunks(`${base}/hcpcs.csv`));
    expect(Buffer.concat(chunks).toString()).toBe(
      'code,kind,long,short\nA0428,procedure,Ambulance service,Bls\n',
    );
    // Stopped past its limit while streaming: an endless answer is never held whole.
    await expect(collect(sourceChunks(`${base}/endless.csv`, 1_000_000))).rejects.toThrow(
      `${base}/endless.csv: expected a reference file of at most 1 MB; found more than that`,
    );
    await expect(collect(sourceChunks(`${base}/broken.csv`))).rejects.toThrow(
      `${base}/broken.csv: expected a whole download; found it broke off after 840 bytes (`,
    );
    await expect(collect(sourceChunks(`${base}/empty.csv`))).rejects.toThrow(
      `${base}/empty.csv: expected a reference file; found an empty file`,
    );
    await expect(collect(sourceChunks(`${base}/stalls.csv`, 1_000_000, 300))).rejects.toThrow(
      `${base}/stalls.csv: expected a whole download; found it broke off after 21 bytes (the server sent nothing for 0.3 s)`,
    );
  });

  it('does not count the time the reader takes on a chunk as the server being quiet', async () => {
    // The stall time is 0.3 s; the reader takes 0.6 s on the first part, the server 0.1 s.
    const read: Buffer[] = [];
    for await (const chunk of sourceChunks(`${base}/two-parts.csv`, 1_000_000, 300)) {
      read.push(chunk);
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    expect(Buffer.concat(read).toString()).toBe(
      'code,kind,long,short\nA0428,procedure,Ambulance service,Bls\n',
    );
  });
});

describe('reading a local reference file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ratelens-reference-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('says when there is no file at the path', async () => {
    const missing = path.join(dir, 'list1.csv');
    await expect(parseCbsaDelineation(missing)).rejects.toThrow(
      `${missing}: expected a readable file; found no file at that path`,
    );
  });

  it('says an empty file is empty, whatever the kind', async () => {
    const empty = path.join(dir, 'empty.csv');
    await writeFile(empty, '');
    const message = `${empty}: expected a reference file; found an empty file`;
    await expect(parseHcpcsLevel2(empty)).rejects.toThrow(message);
    await expect(parseCbsaDelineation(empty)).rejects.toThrow(message);
    await expect(parseNadac(empty)).rejects.toThrow(message);
  });

  it('refuses a URL of a scheme it does not read, rather than looking for such a path', async () => {
    await expect(readSource('ftp://ftp.cms.gov/hcpcs.csv')).rejects.toThrow(
      'ftp://ftp.cms.gov/hcpcs.csv: expected a path or an http(s) URL; found the scheme ftp://',
    );
  });

  it('refuses a folder', async () => {
    await expect(parseHcpcsLevel2(dir)).rejects.toThrow(`${dir}: expected a file; found a folder`);
  });

  it('refuses a file past the size limit before reading it', async () => {
    const huge = path.join(dir, 'huge.csv');
    await writeFile(huge, '');
    // Sparse: no disk used, but its size is what stat reports.
    await truncate(huge, REFERENCE_MAX_BYTES + 1);
    await expect(parseHcpcsLevel2(huge)).rejects.toThrow(
      `${huge}: expected a reference file of at most 100 MB; found 101 MB`,
    );
  });

  it('refuses a file of a kind read whole past 100 MB by its size, and streams NADAC past it', async () => {
    // The kinds read whole hold about 13 times a file's size: a wrong file of hundreds of MB
    // exhausted the heap ("JavaScript heap out of memory", exit 134) instead of a message.
    const huge = path.join(dir, 'huge-whole.csv');
    await writeFile(huge, '');
    await truncate(huge, 150_000_000);
    const message = `${huge}: expected a reference file of at most 100 MB; found 150 MB`;
    for (const parse of [
      parseCbsaDelineation,
      parseHcpcsLevel2,
      parseRvuFile,
      parseGpciFile,
      parseOppsCapFile,
      parseZipLocality,
    ]) {
      await expect(parse(huge)).rejects.toThrow(message);
    }
    // NADAC streams: 150 MB is read, from its first bytes (zeros here, not text).
    await expect(parseNadac(huge)).rejects.toThrow(
      'huge-whole.csv: expected a text file; found binary data',
    );
    // Its limit is the streamed one's.
    await truncate(huge, STREAMED_REFERENCE_MAX_BYTES + 1);
    await expect(openNadac(huge)).rejects.toThrow(
      `${huge}: expected a reference file of at most 2000 MB; found 2001 MB`,
    );
    await expect(collect(sourceChunks(dir))).rejects.toThrow(
      `${dir}: expected a file; found a folder`,
    );
    await expect(collect(sourceChunks(path.join(dir, 'none.csv')))).rejects.toThrow(
      'none.csv: expected a readable file; found no file at that path',
    );
  });
});

describe('referenceTextChunks', () => {
  const text = async (bytes: Buffer, seed: number, most = 7) =>
    (await collect(referenceTextChunks(iterate(pieces(bytes, seed, most)), 'x.csv'))).join('');

  it('decodes bytes cut anywhere as referenceText decodes them whole', async () => {
    const sample = 'code,long\r\nA4216,Caf\u00e9 \u2013 water 10" \u{1F489}\r\nA4217,\u00fcber\n';
    const files = [
      // UTF-8 with its byte-order mark, and characters of 2, 3 and 4 bytes.
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(sample)]),
      // Windows-1252 bytes among UTF-8 ones.
      Buffer.concat([
        Buffer.from('code,long\nA1,'),
        Buffer.from([0x93, 0x41, 0x94, 0xe9]),
        Buffer.from('\u00e9\n'),
      ]),
      // UTF-16 with its mark (Excel's "Unicode Text"), little- and big-endian, and without one.
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sample, 'utf16le')]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(sample, 'utf16le').swap16()]),
      Buffer.from('code\tlong\r\nA0428\tAmbulance\r\n', 'utf16le'),
    ];
    for (const bytes of files) {
      for (const seed of [1, 2, 3, 4, 5]) {
        expect(await text(bytes, seed)).toBe(referenceText(bytes, 'x.csv'));
      }
      expect(await text(bytes, 1, 1)).toBe(referenceText(bytes, 'x.csv'));
    }
  });

  it('refuses bytes that are not text by their first bytes, however they are cut', async () => {
    const zip = Buffer.concat([
      Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1'),
      Buffer.alloc(9000),
    ]);
    await expect(text(zip, 3, 100)).rejects.toThrow(
      'x.csv: expected a text file; found a zip archive (an xlsx workbook is one)',
    );
  });
});

describe('csvRecordStream', () => {
  const streamed = (text: string, seed: number, most = 7) =>
    collect(csvRecordStream(iterate(pieces(text, seed, most)), 'x.csv'));

  it('reads the records parseCsvRows reads, from text cut anywhere', async () => {
    const texts = [
      '\ufeffcode,long\r\nA4216,"Sterile, ""10"" water"\r\n\r\nA4217,10" syringe\rA4218,x\n',
      'code;long;price\nA1;"two\nlines";0,5\nA2;b;1,5',
      'List 1 title, with commas\r\ncode\tname\ttitle\r\n10100\tAberdeen, SD\tx\r\n',
      'a,b\n,\n\n1,2,3\n',
    ];
    for (const text of texts) {
      for (const seed of [1, 2, 3, 4]) {
        expect(await streamed(text, seed)).toEqual(parseCsvRows(text, 'x.csv'));
      }
    }
  });

  it('judges the delimiter by the first 40 lines, as csvDelimiter does, on a long file', async () => {
    // A title with commas over a table split by semicolons, longer than a chunk.
    const rows = Array.from({ length: 5000 }, (_, i) => `A${i};x, y;${i},5`);
    const text = `ADDENDUM E, the title\ncode;long;price\n${rows.join('\n')}\n`;
    expect(csvDelimiter(text)).toBe(';');
    const records = await streamed(text, 9, 4096);
    expect(records).toEqual(parseCsvRows(text, 'x.csv'));
    expect(records[4001]).toEqual(['A3999', 'x, y', '3999,5']);
  });

  it('names the file and the line for a quote that is never closed, as parseCsvRows does', async () => {
    const text = 'code,long\nA4216,"Sterile water\nA4217,x\n';
    await expect(streamed(text, 2)).rejects.toThrow(
      new ReferenceFileError(
        'x.csv',
        'a CSV file',
        'Quote Not Closed: the parsing is finished with an opening quote at line 3',
      ),
    );
  });

  it('passes on an error of the text it reads, and lets the text go when the reader stops', async () => {
    async function* broken(): AsyncGenerator<string> {
      yield 'code,long\nA1,x\n';
      throw new ReferenceFileError('x.csv', 'a whole download', 'it broke off');
    }
    await expect(collect(csvRecordStream(broken(), 'x.csv'))).rejects.toThrow(
      'x.csv: expected a whole download; found it broke off',
    );
    let closed = false;
    async function* endless(): AsyncGenerator<string> {
      try {
        for (let i = 0; ; i += 1) yield `A${i},x\n`;
      } finally {
        closed = true;
      }
    }
    for await (const record of csvRecordStream(endless(), 'x.csv')) {
      if (record[0] === 'A100') break;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toBe(true);
  });
});

describe('RowProblems', () => {
  it('names the first problems by their place, those found later put in among the others', () => {
    const problems = new RowProblems();
    const error = (line: number) =>
      new ReferenceFileError('x.csv', `a number at line ${line}`, 'abc');
    for (const line of [4, 9, 12, 13, 14, 15, 16]) {
      problems.row(
        `line ${line}`,
        () => {
          throw error(line);
        },
        line,
      );
    }
    // Two rows that differ, found after the file was read: lines 3 and 10.
    problems.add(error(3), 'line 3', 3);
    problems.add(error(10), 'line 10', 10);
    problems.addCount(4);
    expect(problems.refused).toBe(13);
    expect(() => problems.check(1)).toThrow(
      'x.csv: expected a number at line 3; found abc; and 12 more refused (line 4, line 9, line 10, line 12, line 13, …)',
    );
  });
});

describe('referenceText', () => {
  it('reads UTF-16 (Excel\'s "Unicode Text"), with or without its byte-order mark', () => {
    const text = 'code,kind,long,short\nA0428,procedure,Ambulance service,Bls\n';
    const bom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(referenceText(bom, 'x.csv')).toBe(text);
    expect(referenceText(Buffer.from(text, 'utf16le'), 'x.csv')).toBe(text);
  });

  it('refuses bytes that are not text, saying what they look like', () => {
    const zip = Buffer.concat([
      Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1'),
      Buffer.alloc(64),
    ]);
    expect(() => referenceText(zip, 'hcpcs.zip')).toThrow(
      'hcpcs.zip: expected a text file; found a zip archive (an xlsx workbook is one)',
    );
    const gzip = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]);
    expect(() => referenceText(gzip, 'codes.csv.gz')).toThrow(
      'codes.csv.gz: expected a text file; found gzip data',
    );
    const noise = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256));
    expect(() => referenceText(noise, 'x.bin')).toThrow(
      'x.bin: expected a text file; found binary data',
    );
  });

  it('keeps Windows-1252 text, with its tabs and line ends, as text', () => {
    const latin = Buffer.from('code\tlong\r\nA4216\tCaf\xe9 \x96 water\r\n', 'latin1');
    expect(referenceText(latin, 'x.txt')).toBe('code\tlong\r\nA4216\tCaf\u00e9 \u2013 water\r\n');
  });
});

describe('ReferenceFileError', () => {
  it('shows the first 120 characters of what it found, not a whole line of a wrong file', () => {
    const error = new ReferenceFileError('x.csv', 'the header code', 'y'.repeat(5000));
    expect(error.message).toBe(`x.csv: expected the header code; found ${'y'.repeat(119)}…`);
    expect(error.found).toHaveLength(5000);
  });
});

describe('parseCsvRows', () => {
  it('keeps a quote inside an unquoted cell as text, as spreadsheets do', () => {
    expect(parseCsvRows('code,long\nA4216,Sterile water 10" syringe\n', 'x.csv')).toEqual([
      ['code', 'long'],
      ['A4216', 'Sterile water 10" syringe'],
    ]);
  });

  it('names the file, and the line where the parse ended, for a quote that is never closed', () => {
    expect(() => parseCsvRows('code,long\nA4216,"Sterile water\nA4217,x\n', 'x.csv')).toThrow(
      new ReferenceFileError(
        'x.csv',
        'a CSV file',
        'Quote Not Closed: the parsing is finished with an opening quote at line 3',
      ),
    );
  });
});

describe('csvDelimiter', () => {
  it('reads tabs or semicolons where the first line has no comma, else commas', () => {
    expect(csvDelimiter('code,kind,long,short\nA1;x\n')).toBe(',');
    expect(csvDelimiter('\r\ncode\tkind\tlong\tshort\n')).toBe('\t');
    expect(csvDelimiter('code;kind;long;short\n')).toBe(';');
    expect(csvDelimiter('ADDENDUM E\n,,x\n')).toBe(',');
  });

  it('reads the delimiter of the table, not of a banner line above it', () => {
    // A ';' GPCI file whose first line is the addendum's title, with no delimiter at all.
    const gpci =
      'ADDENDUM E. FINAL CY 2025 GEOGRAPHIC PRACTICE COST INDICES (GPCIs) BY STATE AND MEDICARE LOCALITY\n' +
      'Medicare Administrative Contractor (MAC);State;Locality Number;Locality Name;2025 PW GPCI (with 1.0 Floor);2025 PE GPCI;2025 MP GPCI\n' +
      '10112;AL;00;ALABAMA;1;0,869;0,575\n02102;AK;01;ALASKA*;1,5;1,081;0,592\n';
    expect(csvDelimiter(gpci)).toBe(';');
    // A tab-delimited List 1 under a title with commas, its titles with commas too.
    const list1 =
      'List 1. CORE BASED STATISTICAL AREAS (CBSAs), METROPOLITAN DIVISIONS, AND COMBINED STATISTICAL AREAS (CSAs)\r\n' +
      'CBSA Code\tCBSA Title\tCounty/County Equivalent\r\n' +
      '10100\tAberdeen, SD\tBrown County\r\n10180\tAbilene, TX\tCallahan County\r\n';
    expect(csvDelimiter(list1)).toBe('\t');
    // A comma file whose cells hold semicolons stays a comma file.
    expect(csvDelimiter('code,kind,long,short\nA1,procedure,a; b; c,x\nA2,procedure,d,y\n')).toBe(
      ',',
    );
  });

  it('reads a tab-delimited List 1 under a title line with commas', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ratelens-reference-'));
    const file = path.join(dir, 'list1.txt');
    const header = [
      'CBSA Code',
      'Metropolitan Division Code',
      'CSA Code',
      'CBSA Title',
      'Metropolitan/Micropolitan Statistical Area',
      'Metropolitan Division Title',
      'CSA Title',
      'County/County Equivalent',
      'State Name',
      'FIPS State Code',
      'FIPS County Code',
      'Central/Outlying County',
    ];
    const row = (cells: string[]) => `${cells.join('\t')}\r\n`;
    await writeFile(
      file,
      'List 1. CORE BASED STATISTICAL AREAS (CBSAs), METROPOLITAN DIVISIONS, AND COMBINED STATISTICAL AREAS (CSAs)\r\n' +
        row(header) +
        row([
          '10100',
          '',
          '',
          'Aberdeen, SD',
          'Micropolitan Statistical Area',
          '',
          '',
          'Brown County',
          'South Dakota',
          '46',
          '013',
          'Central',
        ]),
    );
    const delineation = await parseCbsaDelineation(file);
    expect(delineation.cbsas.map((cbsa) => [cbsa.code, cbsa.title])).toEqual([
      ['10100', 'Aberdeen, SD'],
    ]);
    expect(delineation.counties.map((county) => county.countyFips)).toEqual(['46013']);
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a HCPCS file saved by Excel as "Unicode Text" (UTF-16, tabs)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ratelens-reference-'));
    const file = path.join(dir, 'hcpcs.txt');
    const text = 'code\tkind\tlong\tshort\r\nA0428\tprocedure\tAmbulance, basic\tBls\r\n';
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(await parseHcpcsLevel2(file)).toEqual([
      {
        code: 'A0428',
        kind: 'procedure',
        longDescription: 'Ambulance, basic',
        shortDescription: 'Bls',
      },
    ]);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('KeyedRecords', () => {
  it('drops a record repeated whole, and refuses two that differ, naming both lines', () => {
    const zips = new KeyedRecords<{ zip: string; locality: string }>('ZIP5.txt', 'ZIP');
    zips.add('99701', { zip: '99701', locality: '01' }, 'line 1');
    zips.add('99701', { zip: '99701', locality: '01' }, 'line 2');
    expect(zips.records).toHaveLength(1);
    expect(() => zips.add('99701', { zip: '99701', locality: '99' }, 'line 3')).toThrow(
      'ZIP5.txt: expected one record for each ZIP; found two that differ for 99701, at line 1 and line 3',
    );
  });
});

describe('normaliseHeader', () => {
  it('reduces published header spellings to snake_case', () => {
    expect(normaliseHeader(' NDC Description ')).toBe('ndc_description');
    expect(normaliseHeader('NADAC_Per_Unit')).toBe('nadac_per_unit');
    expect(normaliseHeader('2025 PW GPCI (with 1.0 Floor)')).toBe('2025_pw_gpci_with_1_0_floor');
  });
});

describe('parseDecimal', () => {
  const read = (value: string, mark?: ',' | '.') => parseDecimal(value, 'x.csv', 'line 3', mark);

  it('reads plain decimal text only, not what Number() reads and a reference file does not write', () => {
    expect(read('0.869')).toBe(0.869);
    expect(read('-1.5')).toBe(-1.5);
    expect(read('+2')).toBe(2);
    expect(read('.5')).toBe(0.5);
    expect(read('$12.50')).toBe(12.5);
    expect(read('1,234.56')).toBe(1234.56);
    expect(read('  ')).toBeNull();
    for (const text of ['0x10', '1e3', 'Infinity', '0b1', '1.2.3', '1 234', '--1', '1-']) {
      expect(() => read(text), text).toThrow(`x.csv: expected a number at line 3; found ${text}`);
    }
  });

  it('never reads a decimal comma as a thousands separator', () => {
    // "0,869" cannot be thousands: with a point as the mark it is refused, not read as 869.
    expect(() => read('0,869')).toThrow('x.csv: expected a number at line 3; found 0,869');
    expect(() => read('32,3465')).toThrow('found 32,3465');
  });

  it('reads a comma as the decimal mark of a semicolon file, a point only where unambiguous', () => {
    expect(read('0,869', ',')).toBe(0.869);
    expect(read('32,3465', ',')).toBe(32.3465);
    expect(read('-1,5', ',')).toBe(-1.5);
    expect(read('1.234,5', ',')).toBe(1234.5);
    expect(read('1', ',')).toBe(1);
    // No thousands separator writes "0.869" or "1.5".
    expect(read('0.869', ',')).toBe(0.869);
    expect(read('1.5', ',')).toBe(1.5);
    expect(() => read('1.081', ',')).toThrow(
      'x.csv: expected a number at line 3; found 1.081, thousands or a decimal point in a file whose decimal mark is ","',
    );
    expect(() => read('1,2,3', ',')).toThrow('found 1,2,3');
    expect(() => read('1.2,3', ',')).toThrow('found 1.2,3');
  });
});
