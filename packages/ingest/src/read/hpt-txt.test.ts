import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveFiles } from '../testing/file-server.ts';
import { hptTxtOfSite, isHptTxt, parseHptTxt, readHptTxt } from './hpt-txt.ts';

// The example of CMS's "Hospital Price Transparency: cms-hpt.txt" guidance, two locations.
const EXAMPLE = [
  'location-name: Test Hospital',
  'source-page-url: https://www.testhospital.com/price-transparency',
  'mrf-url: https://www.testhospital.com/documents/123456789_test-hospital_standardcharges.json',
  'contact-name: Jane Doe',
  'contact-email: doe.jane@testhospital.com',
  '',
  'location-name: Test Hospital Northside',
  'source-page-url: https://www.testhospital.com/price-transparency',
  'mrf-url: https://www.testhospital.com/documents/987654321_test-hospital-northside_standardcharges.csv',
  'contact-name: Jane Doe',
  'contact-email: doe.jane@testhospital.com',
  '',
].join('\n');

describe('cms-hpt.txt', () => {
  it('is known by its name, from a path or a URL', () => {
    expect(isHptTxt('/srv/www/cms-hpt.txt')).toBe(true);
    expect(isHptTxt('https://www.testhospital.com/CMS-HPT.TXT?x=1')).toBe(true);
    expect(isHptTxt('https://www.testhospital.com/cms-hpt.txt.json')).toBe(false);
    expect(isHptTxt('cms-hpt.json')).toBe(false);
  });

  it("is looked for at a website's root when the site is given by its address alone", () => {
    expect(hptTxtOfSite('https://www.testhospital.com')).toBe(
      'https://www.testhospital.com/cms-hpt.txt',
    );
    expect(hptTxtOfSite('HTTP://TestHospital.com:8080/')).toBe(
      'http://testhospital.com:8080/cms-hpt.txt',
    );
    for (const other of [
      'https://www.testhospital.com/prices',
      'https://www.testhospital.com/?page=prices',
      'https://www.testhospital.com/#prices',
      'www.testhospital.com',
      '/srv/www',
      'ftp://testhospital.com/',
    ])
      expect(hptTxtOfSite(other)).toBeNull();
  });

  it('reads each location of the CMS example', () => {
    const { locations, problems } = parseHptTxt(EXAMPLE, 'cms-hpt.txt');
    expect(problems).toEqual([]);
    expect(locations).toEqual([
      {
        locationName: 'Test Hospital',
        sourcePageUrl: 'https://www.testhospital.com/price-transparency',
        mrfUrl:
          'https://www.testhospital.com/documents/123456789_test-hospital_standardcharges.json',
        contactName: 'Jane Doe',
        contactEmail: 'doe.jane@testhospital.com',
      },
      expect.objectContaining({
        locationName: 'Test Hospital Northside',
        mrfUrl:
          'https://www.testhospital.com/documents/987654321_test-hospital-northside_standardcharges.csv',
      }),
    ]);
  });

  it('reads what hospitals write instead, and says what it could not use', () => {
    const text = [
      'Location-Name: North', // keys in any case, CRLF line ends
      'MRF-URL :  /files/north.json  ',
      'location-name: South', // no blank line before the next location
      'mrf-url: south.zip',
      '',
      '',
      'location-name: Nowhere', // no mrf-url
      'contact-email: x@example.org',
      '',
      'location-name: Elsewhere',
      'mrf-url: ftp://example.org/a.json',
      'Our prices are at example.org', // not a field
    ].join('\r\n');
    const { locations, problems } = parseHptTxt(text, 'https://example.org/a/cms-hpt.txt');
    expect(locations.map((l) => [l.locationName, l.mrfUrl])).toEqual([
      ['North', 'https://example.org/files/north.json'],
      ['South', 'https://example.org/a/south.zip'],
    ]);
    expect(problems).toEqual([
      'line 7: a location without an mrf-url',
      'line 10: mrf-url "ftp://example.org/a.json" is not an http(s) address',
      'line 12: "Our prices are at example.org" is not a cms-hpt.txt field',
    ]);
    // Relative addresses need the file's own URL.
    expect(parseHptTxt('mrf-url: /north.json', '/srv/cms-hpt.txt').problems).toEqual([
      'line 1: mrf-url "/north.json" is not an http(s) address',
    ]);
    // Names every JavaScript object has are no fields either.
    const own = 'location-name: A\nmrf-url: https://h.example/a.json\nconstructor: x\n__proto__: y';
    expect(parseHptTxt(own, '/srv/cms-hpt.txt')).toEqual({
      locations: [expect.objectContaining({ locationName: 'A' })],
      problems: [
        'line 3: "constructor: x" is not a cms-hpt.txt field',
        'line 4: "__proto__: y" is not a cms-hpt.txt field',
      ],
    });
    expect(parseHptTxt('\n\n', '/srv/cms-hpt.txt').problems).toEqual([
      'cms-hpt.txt lists no location',
    ]);
  });

  it('says once that a web page is no list, rather than a problem for each of its lines', () => {
    const page =
      '<!DOCTYPE html>\n<html>\n<head><title>Page not found</title></head>\n<body>Sorry: mrf-url</body>\n</html>\n';
    expect(parseHptTxt(page, 'https://example.org/cms-hpt.txt')).toEqual({
      locations: [],
      problems: ['https://example.org/cms-hpt.txt is a web page (HTML), not a cms-hpt.txt list'],
    });
  });

  it('keeps a location whose page or e-mail address is unusable, without them, and says so', () => {
    const text = [
      'location-name: North',
      'source-page-url: javascript:alert(1)',
      'mrf-url: https://example.org/north.json',
      'contact-name: ' + 'N'.repeat(300),
      'contact-email: prices at example dot org',
      '',
      'location-name: South',
      'source-page-url: /prices',
      'mrf-url: https://example.org/south.json',
      'contact-email: prices@example.org',
    ].join('\n');
    const { locations, problems } = parseHptTxt(text, 'https://example.org/cms-hpt.txt');
    expect(locations).toEqual([
      {
        locationName: 'North',
        sourcePageUrl: null,
        mrfUrl: 'https://example.org/north.json',
        contactName: `${'N'.repeat(199)}…`,
        contactEmail: null,
      },
      {
        locationName: 'South',
        sourcePageUrl: 'https://example.org/prices',
        mrfUrl: 'https://example.org/south.json',
        contactName: null,
        contactEmail: 'prices@example.org',
      },
    ]);
    expect(problems).toEqual([
      'line 1: source-page-url "javascript:alert(1)" is not an http(s) address',
      'line 1: contact-email "prices at example dot org" is not an e-mail address',
    ]);
  });

  it('reads the file from a path or a URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ratelens-hpt-'));
    const server = await serveFiles({ '/cms-hpt.txt': Buffer.from(`\ufeff${EXAMPLE}`) });
    try {
      const path = join(dir, 'cms-hpt.txt');
      await writeFile(path, EXAMPLE);
      expect((await readHptTxt(path)).locations).toHaveLength(2);
      expect((await readHptTxt(server.url('/cms-hpt.txt'))).locations).toHaveLength(2);
      await expect(readHptTxt(server.url('/missing/cms-hpt.txt'))).rejects.toThrow(
        `${server.url('/missing/cms-hpt.txt')}: expected an HTTP 200 response; found HTTP 404`,
      );
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
