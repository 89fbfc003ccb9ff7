import { readSource, sourceName } from '../reference/source.ts';
import { decodeText, looksLikeHtml } from './decode.ts';

/**
 * One location of a hospital's `cms-hpt.txt`, the file CMS asks every hospital to publish at the
 * root of its website (45 CFR 180.50(d)(6)): where its machine-readable file is.
 */
export interface HptLocation {
  locationName: string | null;
  sourcePageUrl: string | null;
  mrfUrl: string;
  contactName: string | null;
  contactEmail: string | null;
}

/** What a hospital's cms-hpt.txt says of one of its files, kept with the file's runs. */
export type HptListing = Pick<HptLocation, 'sourcePageUrl' | 'contactName' | 'contactEmail'> & {
  /** The cms-hpt.txt itself (its path or URL), read again by `npm run ingest -- --refresh`. */
  listedIn: string;
};

export interface HptTxt {
  locations: HptLocation[];
  /** What could not be used, in words, with the line it starts on. */
  problems: string[];
}

/** The name CMS gives the file; a source is read as one when its last path segment is this. */
export const HPT_TXT_NAME = 'cms-hpt.txt';

/** Far more than any hospital system's list (a few hundred bytes a location). */
const HPT_TXT_MAX_BYTES = 5_000_000;
/** Longer names are cut and longer e-mail addresses left out, so a page never shows a wall of text. */
const MAX_VALUE = 200;
const EMAIL = /^[^\s@<>]+@(?=[^\s@<>]+$)[^\s@<>]+\.[^\s@<>]+$/;

export function isHptTxt(source: string): boolean {
  const path = source.replace(/[?#].*$/, '');
  return path.slice(path.lastIndexOf('/') + 1).toLowerCase() === HPT_TXT_NAME;
}

/**
 * The cms-hpt.txt of a website given by its address alone (`https://hospital.org`, with or
 * without its last `/`), where CMS asks hospitals to publish it: at the site's root. Null for
 * anything else (a path, a file's URL, an address with a query).
 */
export function hptTxtOfSite(source: string): string | null {
  if (!/^https?:\/\//i.test(source) || !URL.canParse(source)) return null;
  const url = new URL(source);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') return null;
  return new URL(`/${HPT_TXT_NAME}`, url).href;
}

const KEYS = {
  'location-name': 'locationName',
  'source-page-url': 'sourcePageUrl',
  'mrf-url': 'mrfUrl',
  'contact-name': 'contactName',
  'contact-email': 'contactEmail',
} as const;

/**
 * Reads a `cms-hpt.txt` from a path or URL: blocks of `key: value` lines separated by blank lines,
 * one per location. Keys are read whatever their case; a relative `mrf-url` is resolved against
 * the file's own URL. A block without a usable `mrf-url` is a problem, not a failure.
 */
export async function readHptTxt(source: string): Promise<HptTxt> {
  return parseHptTxt(decodeText(await readSource(source, HPT_TXT_MAX_BYTES)), source);
}

export function parseHptTxt(text: string, source: string): HptTxt {
  const locations: HptLocation[] = [];
  const problems: { line: number; text: string }[] = [];
  if (looksLikeHtml(text.slice(0, 200))) {
    // A site's "not found" page, served with 200: one sentence, not a problem for every line.
    return {
      locations: [],
      problems: [`${sourceName(source)} is a web page (HTML), not a cms-hpt.txt list`],
    };
  }
  const base = /^https?:\/\//i.test(source) ? source : undefined;
  let block: Partial<Record<(typeof KEYS)[keyof typeof KEYS], string>> = {};
  let blockLine = 0;
  const close = () => {
    if (blockLine === 0) return;
    const raw = block.mrfUrl;
    const url = raw === undefined ? null : absoluteUrl(raw, base);
    if (url === null) {
      problems.push({
        line: blockLine,
        text:
          raw === undefined
            ? 'a location without an mrf-url'
            : `mrf-url "${raw}" is not an http(s) address`,
      });
    } else {
      const page = block.sourcePageUrl;
      const sourcePageUrl = page === undefined ? null : absoluteUrl(page, base);
      if (page !== undefined && sourcePageUrl === null)
        problems.push({
          line: blockLine,
          text: `source-page-url "${page.slice(0, 80)}" is not an http(s) address`,
        });
      const email = block.contactEmail;
      const emailOk = email !== undefined && email.length <= MAX_VALUE && EMAIL.test(email);
      if (email !== undefined && !emailOk)
        problems.push({
          line: blockLine,
          text: `contact-email "${email.slice(0, 80)}" is not an e-mail address`,
        });
      locations.push({
        locationName: shortText(block.locationName),
        sourcePageUrl,
        mrfUrl: url,
        contactName: shortText(block.contactName),
        contactEmail: emailOk ? email : null,
      });
    }
    block = {};
    blockLine = 0;
  };
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') {
      close();
      return;
    }
    const colon = line.indexOf(':');
    const key = colon === -1 ? '' : line.slice(0, colon).trim().toLowerCase();
    // Own keys only: "constructor: x" is no field, not Object's constructor.
    const field = Object.hasOwn(KEYS, key) ? KEYS[key as keyof typeof KEYS] : undefined;
    if (field === undefined) {
      problems.push({
        line: i + 1,
        text: `"${line.trim().slice(0, 80)}" is not a cms-hpt.txt field`,
      });
      return;
    }
    // A second location written without the blank line between.
    if (block[field] !== undefined) close();
    if (blockLine === 0) blockLine = i + 1;
    block[field] = line.slice(colon + 1).trim();
  });
  close();
  if (locations.length === 0 && problems.length === 0) {
    return { locations, problems: [`${sourceName(source)} lists no location`] };
  }
  problems.sort((a, b) => a.line - b.line);
  return { locations, problems: problems.map(({ line, text }) => `line ${line}: ${text}`) };
}

function shortText(value: string | undefined): string | null {
  if (value === undefined || value.length === 0) return null;
  return value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE - 1)}…` : value;
}

function absoluteUrl(value: string, base: string | undefined): string | null {
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
