export type PartnerImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';

export interface ImageInfo {
  type: PartnerImageType;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function png(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { type: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Walks the JPEG markers to the first start-of-frame, which holds the size. */
function jpeg(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return null;
  let p = 2;
  while (p + 9 < bytes.length) {
    if (bytes[p] !== 0xff) return null;
    const marker = bytes[p + 1] ?? 0;
    if (marker === 0xff) {
      p += 1; // fill byte
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) {
      return {
        type: 'image/jpeg',
        height: bytes.readUInt16BE(p + 5),
        width: bytes.readUInt16BE(p + 7),
      };
    }
    p += 2 + bytes.readUInt16BE(p + 2);
  }
  return null;
}

function webp(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 30) return null;
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP')
    return null;
  const chunk = bytes.toString('latin1', 12, 16);
  const info = (width: number, height: number): ImageInfo => ({
    type: 'image/webp',
    width,
    height,
  });
  switch (chunk) {
    case 'VP8 ':
      return info(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
    case 'VP8L': {
      const bits = bytes.readUInt32LE(21);
      return info((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    case 'VP8X':
      return info(bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1);
    default:
      return null;
  }
}

function svgLength(value: string | undefined): number | null {
  const match = value ? /^\s*(\d+(?:\.\d+)?)\s*(?:(px)\s*)?$/.exec(value) : null;
  const length = match ? Math.round(Number(match[1])) : NaN;
  return Number.isFinite(length) && length > 0 ? length : null;
}

/** An SVG's size from its root element: width and height in pixels, else its viewBox. */
function svg(bytes: Buffer): ImageInfo | null {
  if (bytes.includes(0)) return null;
  const text = bytes.toString('utf8').replace(/^\ufeff/, '');
  // Only a prolog (XML declaration, comments, doctype) may come before the root element. A comment
  // ends at its first "-->": a lazy `[\s\S]*?` could also end at any later one, and a run of
  // comments was tried in every grouping, time doubling with each (ADR 0004, "Patterns").
  const root =
    /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--(?:[^-]|-(?!->))*-->|<!DOCTYPE[^>]*>)\s*)*<svg\b([^>]*)>/i.exec(
      text,
    );
  if (!root) return null;
  const attributes = new Map<string, string>();
  for (const match of (root[1] ?? '').matchAll(
    /(?<![\w:-])([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g,
  )) {
    attributes.set((match[1] ?? '').toLowerCase(), match[2] ?? match[3] ?? '');
  }
  const width = svgLength(attributes.get('width'));
  const height = svgLength(attributes.get('height'));
  if (width && height) return { type: 'image/svg+xml', width, height };
  const box = (attributes.get('viewbox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const [, , boxWidth, boxHeight] = box;
  if (box.length === 4 && boxWidth && boxHeight && boxWidth > 0 && boxHeight > 0)
    return { type: 'image/svg+xml', width: Math.round(boxWidth), height: Math.round(boxHeight) };
  return null;
}

/** The type and pixel size of a PNG, JPEG, WebP or SVG, judged by its bytes; null otherwise. */
export function imageInfo(bytes: Buffer): ImageInfo | null {
  const info = png(bytes) ?? jpeg(bytes) ?? webp(bytes) ?? svg(bytes);
  return info && info.width > 0 && info.height > 0 ? info : null;
}
