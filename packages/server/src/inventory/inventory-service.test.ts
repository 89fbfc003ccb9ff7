import { describe, expect, it } from 'vitest';
import { fileSource } from './inventory-service.ts';

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
