import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHcpcsLevel2 } from './hcpcs.ts';
import { decodeText, normaliseHeader } from './source.ts';

describe('reading a reference file from a URL', () => {
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/hcpcs.csv') {
        response.end('code,kind,long,short\nA0428,procedure,Ambulance service,Bls\n');
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
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
});

describe('decodeText', () => {
  it('reads UTF-8 without its byte-order mark', () => {
    expect(decodeText(Buffer.from('\ufeffcode', 'utf8'))).toBe('code');
  });

  it('falls back to Windows-1252 for bytes that are not UTF-8', () => {
    expect(decodeText(Buffer.from([0x4d, 0x92, 0x73]))).toBe('M’s');
  });
});

describe('normaliseHeader', () => {
  it('reduces published header spellings to snake_case', () => {
    expect(normaliseHeader(' NDC Description ')).toBe('ndc_description');
    expect(normaliseHeader('NADAC_Per_Unit')).toBe('nadac_per_unit');
    expect(normaliseHeader('2025 PW GPCI (with 1.0 Floor)')).toBe('2025_pw_gpci_with_1_0_floor');
  });
});
