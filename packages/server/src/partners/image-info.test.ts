import { describe, expect, it } from 'vitest';
import { png } from '../test/files.ts';
import { imageInfo } from './image-info.ts';

/** SOI, a JFIF APP0 segment, then a baseline start-of-frame holding height then width. */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff,
    0xe0,
    0x00,
    0x10,
    ...Buffer.from('JFIF\0'),
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
  ]);
  const frame = Buffer.alloc(19);
  frame.set([0xff, 0xc0, 0x00, 0x11, 0x08]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, frame, Buffer.from([0xff, 0xd9])]);
}

function webpLossless(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(30);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(22, 4);
  bytes.write('WEBPVP8L', 8, 'latin1');
  bytes.writeUInt32LE(5, 16);
  bytes[20] = 0x2f;
  bytes.writeUInt32LE((width - 1) | ((height - 1) << 14), 21);
  return bytes;
}

describe('imageInfo of an SVG built to make its patterns backtrack', () => {
  it('answers at once for a run of empty comments before a wrong root', () => {
    // Each comment could also end at a later "-->": time doubled with each, hours for 40.
    expect(imageInfo(Buffer.from(`${'<!---->'.repeat(40)}x`))).toBeNull();
    expect(imageInfo(Buffer.from(`${'<!-- a -->'.repeat(40)}<svg width="2" height="3"/>`))).toEqual(
      { type: 'image/svg+xml', width: 2, height: 3 },
    );
  });

  it('answers at once for a long attribute name without a value, or a long size', () => {
    const long = 300_000;
    expect(imageInfo(Buffer.from(`<svg ${'a'.repeat(long)}/>`))).toBeNull();
    expect(imageInfo(Buffer.from(`<svg width="1${' '.repeat(long)}x" height="1"/>`))).toBeNull();
  });
});

describe('imageInfo', () => {
  it('reads the size of a PNG from its header', () => {
    expect(imageInfo(png(4, 3))).toEqual({ type: 'image/png', width: 4, height: 3 });
  });

  it('reads the size of a JPEG from its start-of-frame', () => {
    expect(imageInfo(jpeg(640, 480))).toEqual({ type: 'image/jpeg', width: 640, height: 480 });
  });

  it('reads the size of a lossless WebP', () => {
    expect(imageInfo(webpLossless(300, 100))).toEqual({
      type: 'image/webp',
      width: 300,
      height: 100,
    });
  });

  it('reads an SVG size from width and height in pixels', () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200px" height="50"></svg>',
    );
    expect(imageInfo(svg)).toEqual({ type: 'image/svg+xml', width: 200, height: 50 });
  });

  it('falls back to the viewBox of an SVG sized in percent', () => {
    const svg = Buffer.from(
      "<!-- logo --><svg width='100%' viewBox='0 0 90.4 30' xmlns='http://www.w3.org/2000/svg'/>",
    );
    expect(imageInfo(svg)).toEqual({ type: 'image/svg+xml', width: 90, height: 30 });
  });

  it('rejects an SVG without any size, HTML, and a program', () => {
    const sizeless = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    const html = Buffer.from('<html><svg width="1" height="1"></svg></html>');
    const program = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(40)]);
    expect([sizeless, html, program].map(imageInfo)).toEqual([null, null, null]);
  });
});
