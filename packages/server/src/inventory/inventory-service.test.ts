import { describe, expect, it } from 'vitest';
import { fileSource, shownError } from './inventory-service.ts';

describe('fileSource', () => {
  it('shows a path by its file name alone, with no link', () => {
    expect(fileSource('/data/files/anchorage_standardcharges.json')).toEqual({
      source: 'anchorage_standardcharges.json',
      sourceUrl: null,
    });
    expect(fileSource('C:\\mrf\\vineyard.csv').source).toBe('vineyard.csv');
  });

  it('names an archive and its file; a "#" of the path itself is part of the name', () => {
    expect(fileSource('/data/system.zip#mrf/north.json')).toEqual({
      source: 'system.zip#north.json',
      sourceUrl: null,
    });
    expect(fileSource('/data/files #2/vineyard.csv').source).toBe('vineyard.csv');
    expect(fileSource('/data/a#b.csv').source).toBe('a#b.csv');
  });

  it('links a file read from a URL, decoding its name; a zip member links to the archive', () => {
    expect(fileSource('https://hospital.example/mrf/Price%20List.json?v=2')).toEqual({
      source: 'Price List.json',
      sourceUrl: 'https://hospital.example/mrf/Price%20List.json?v=2',
    });
    expect(fileSource('https://system.example/all.zip#mrf/c%20d.csv')).toEqual({
      source: 'all.zip#c d.csv',
      sourceUrl: 'https://system.example/all.zip',
    });
    expect(fileSource('http://hospital.example/bad%zz.csv').source).toBe('bad%zz.csv');
  });

  it('never links anything but http(s)', () => {
    expect(fileSource('javascript:alert(1)//x.json').sourceUrl).toBeNull();
    expect(fileSource('https://').sourceUrl).toBeNull();
  });
});

describe('shownError', () => {
  it("names a file error's file, not the server's folders", () => {
    const source = '/srv/ratelens/mrf/north.json';
    expect(
      shownError("EACCES: permission denied, open '/srv/ratelens/mrf/north.json'", source),
    ).toBe("EACCES: permission denied, open 'north.json'");
    expect(
      shownError("ENOENT: no such file or directory, open 'C:\\mrf\\a b.csv'", 'C:\\mrf\\a b.csv'),
    ).toBe("ENOENT: no such file or directory, open 'a b.csv'");
    // The ingest's own words write the path as given.
    expect(shownError(`The file ${source} does not exist or cannot be read.`, source)).toBe(
      'The file north.json does not exist or cannot be read.',
    );
    expect(
      shownError(
        '/data/mrf/system.zip holds no file named north.json.',
        '/data/mrf/system.zip#north.json',
      ),
    ).toBe('system.zip holds no file named north.json.');
  });

  it('leaves addresses, quoted words and no error as they are', () => {
    for (const error of [
      "fetch failed for 'https://north.example/files/north.json' (404)",
      "The column 'standard_charge|gross' is missing.",
      'The file has no content.',
    ])
      expect(shownError(error, 'https://north.example/files/north.json')).toBe(error);
    expect(shownError(null, 'north.json')).toBeNull();
  });
});
