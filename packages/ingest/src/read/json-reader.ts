import {
  payerChargeWith,
  type CmsVersion,
  type ChargeRecord,
  type CodeRef,
  type MrfHeader,
  type PayerCharge,
} from '../model.ts';
import {
  checkDrugInformation,
  minMaxUnreadable,
  checkPayer,
  checkRecord,
  planNameOrNone,
  type RuleContext,
} from '../validate/record-rules.ts';
import { ValidationReport } from '../validate/report.ts';
import type { RuleId } from '../validate/rules.ts';
import { Utf8OrCp1252Decoder } from './decode.ts';
import { MrfReadError } from './errors.ts';
import { duplicateKeys } from './duplicate-keys.ts';
import { FILE_FIELDS, UnknownFields, keysIn, shortly, written } from './json-fields.ts';
import {
  MORE,
  isItemLike,
  isSpace,
  itemStartsAt,
  keyStartsAt,
  listEndsAt,
  nextSignificant,
  previousSignificant,
} from './json-resync.ts';
import { checkHeader, checkStatement, emptyHeader, readNpis, resolveVersion } from './header.ts';
import {
  lenientJson,
  lostQuoteEnd,
  mayFollowSeparator,
  mayFollowString,
  type Repair,
  type RepairExample,
} from './lenient-json.ts';
import {
  CODE_TYPES_V2_SET,
  CODE_TYPES_V3_SET,
  NameNormaliser,
  amount,
  confirmation,
  CHARGE,
  DRUG_UNIT,
  ALLOWED,
  PERCENT,
  codeType,
  codeValue,
  drugType,
  numberOrNull,
  isoDate,
  allowedAmount,
  jsonAmount,
  jsonText,
  methodology,
  modifierCodes,
  provisionsText,
  setting,
  splitPipes,
  text,
} from './normalise.ts';
import { keepOrReject, type FormatParser } from './parser.ts';

// Scanner states.
const START = 0;
const KEY = 1;
const COLON = 2;
const VALUE = 3;
const IN_VALUE = 4;
const ITEMS = 5;
const IN_ITEM = 6;
const DONE = 7;
/** Reading past the rest of an item that a stray closing brace or bracket ended early. */
const ITEM_TAIL = 8;

/** How the item just scanned is broken, when its braces and brackets do not pair up. */
const WHOLE = 0;
/** An opening was never closed: the item was read up to where the next item (or the list's end) starts. */
const UNCLOSED = 1;
/** A closing came that no opening called for: the item ended early, and its tail follows. */
const CLOSED_EARLY = 2;

/**
 * The largest item (or other top-level value) the reader builds: 640 times AdventHealth's largest
 * item (25 KB). One beyond it is skipped and reported; JSON.parse of it would take several times
 * its size in memory, and a file's memory must stay flat however it is written. It is counted
 * as the value is read, so one that ends in the chunk that crosses the limit is still built.
 */
export const MAX_VALUE_BYTES = 16 << 20;

const QUOTE = 0x22;
const SLASH = 0x2f;
const COLON_BYTE = 0x3a;
/** A comment between fields longer than this is no comment but a broken file. */
const MAX_COMMENT_BYTES = 1 << 20;
const BACKSLASH = 0x5c;
const ITEMS_KEY = 'standard_charge_information';
const MODIFIERS_KEY = 'modifier_information';

/**
 * A repair's detail: the field it was in and what was written there, `standard_charge_dollar:
 * "None"`; nothing beyond the examples lenientJson keeps, which the report would not keep either.
 */
function writtenIn(example?: RepairExample): string | undefined {
  if (example === undefined) return undefined;
  const written = JSON.stringify(example.written);
  return example.key === null ? written : `${example.key}: ${written}`;
}

/**
 * A comma's detail: `what` and where, after the field it follows (`missing comma after
 * "payer_name"`) or in the list or object it is in (`in "payers_information"`).
 */
function commaAt(what?: string): (example?: RepairExample) => string | undefined {
  return (example) => {
    if (example === undefined || example.key === null) return what;
    const at = `${example.within ? 'in' : 'after'} ${JSON.stringify(example.key)}`;
    return what === undefined ? at : `${what} ${at}`;
  };
}

/**
 * Why JSON.parse refused an item, with the text where it stopped: its "at position 398" counts
 * from the item's start, which no one can find in a file of gigabytes, so the text around it is
 * shown (`Expected double-quoted property name in JSON at position 8, after “{"a": 1,”`).
 */
export function parseFailure(cause: unknown, text: string): string {
  const message = cause instanceof Error ? cause.message : '';
  const at = /at position (\d+)/.exec(message);
  if (!at) return message;
  const position = Number(at[1]);
  const from = Math.max(0, position - PARSE_CONTEXT);
  const before = text.slice(from, position).replace(/\s+/g, ' ');
  return `${message}, after “${from > 0 ? '…' : ''}${before}”`;
}
/** How much of the text before where JSON.parse stopped `parseFailure` shows. */
const PARSE_CONTEXT = 40;

/** What each of lenientJson's repairs is said as, once per repair, and the detail it gives. */
const REPAIRS: readonly [Repair, RuleId, (example?: RepairExample) => string | undefined][] = [
  ['nonFinite', 'json.non-finite', writtenIn],
  ['trailingCommas', 'json.trailing-comma', commaAt()],
  ['missingCommas', 'json.comma', commaAt('missing comma')],
  ['extraCommas', 'json.comma', commaAt('extra comma')],
  ['comments', 'json.comment', writtenIn],
  ['unescapedQuotes', 'json.unescaped-quote', writtenIn],
  ['controlCharacters', 'json.control-character', writtenIn],
  ['invalidEscapes', 'json.invalid-escape', writtenIn],
  ['numberForms', 'json.number-form', writtenIn],
  ['unclosedStrings', 'json.unclosed-string', writtenIn],
];

/** Index of the closing quote of a string whose content starts at `from`, or -1. */
function endOfString(b: Buffer, from: number): number {
  let k = b.indexOf(QUOTE, from);
  while (k !== -1) {
    let j = k - 1;
    while (b[j] === BACKSLASH) j--;
    if ((k - 1 - j) % 2 === 0) return k;
    k = b.indexOf(QUOTE, k + 1);
  }
  return -1;
}

/**
 * Whether the quote at k closes its string: 1 when a byte that may follow a string comes next,
 * after white space (mayFollowString), and after a comma or colon one that may follow that
 * (mayFollowSeparator); 0 when text does, for the quote is then the text's own, one the writer
 * did not escape (`12" tube`, `8", prefabricated`); MORE when the buffer ends first.
 */
function closesString(b: Buffer, k: number): number {
  let j = k + 1;
  let c = b[j];
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++j];
  if (c === undefined) return MORE;
  if (c !== 0x2c /* , */ && c !== COLON_BYTE) return mayFollowString(c) ? 1 : 0;
  c = b[++j];
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++j];
  if (c === undefined) return MORE;
  return mayFollowSeparator(c) ? 1 : 0;
}

/** Whether the bytes from i to the buffer's end are white space or NUL (padding) only. */
function onlySpaceFrom(b: Buffer, i: number): boolean {
  for (let k = i; k < b.length; k++) if (!isSpace(b[k] as number) && b[k] !== 0) return false;
  return true;
}

type JsonObject = Record<string, unknown>;
type Separator = 'open' | 'value' | 'comma';

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads a CMS JSON MRF as a stream. A byte-level scanner finds the extent of each element of
 * `standard_charge_information` (and of each other top-level value) without building anything,
 * then JSON.parse builds that one element: memory holds one item at a time, and V8's JSON.parse
 * does the heavy lifting far faster than a token-by-token parser in JavaScript.
 */
export class JsonMrfParser implements FormatParser {
  header: MrfHeader | null = null;
  readonly out: ChargeRecord[] = [];

  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private state = START;
  private key = '';
  private tokenStart = 0;
  private scanPos = 0;
  /** The first byte of the value being scanned, and where in the file it starts. */
  private tokenFirst = 0;
  private tokenAt = 0;
  /** Bytes let go of from the front of `buf` so far: the file offset of `buf[0]`. */
  private dropped = 0;
  /** The value being scanned is past MAX_VALUE_BYTES: it is skipped, not held. */
  private oversized = false;
  private depth = 0;
  /**
   * The kinds of the value's open braces and brackets, innermost in the lowest bit (1 an object,
   * 0 a list), for the first 31 levels: how an item whose braces do not pair up is told.
   */
  private kinds = 0;
  /** A closing brace or bracket of the value closed the other kind: the value is broken. */
  private unbalanced = false;
  /** How the item just scanned is broken: WHOLE, UNCLOSED or CLOSED_EARLY. */
  private broken = WHOLE;
  /** In ITEM_TAIL: the depth of the tail's braces and brackets, and whether a comma came last. */
  private tailDepth = 0;
  private tailAfterComma = false;
  /** The item scanned ended at `scanPos`, with only white space after it so far (IN_ITEM). */
  private itemEnded = false;
  /** The file has no more bytes: what waited on them to tell where a broken item ends is decided. */
  private ended = false;
  /**
   * The list of items is broken somewhere (an item unbalanced or not JSON, stray text, an entry
   * that is no item): its closing bracket is then checked for being one (listEndsAt).
   */
  private listDamaged = false;
  /** The index of the first item at which the list was found broken. */
  private damagedFrom = 0;
  /** The file's last byte so far that is not white space or NUL, and its offset in the file. */
  private lastText: { byte: number; at: number } | null = null;
  /** The last item that a bracket closed early: its index and the file offset of its end. */
  private closedEarly: { index: number; end: number } | null = null;
  /** The last top-level value read: its key, the file offset of its end, whether it paired up. */
  private lastValue: { key: string; end: number; unbalanced: boolean } | null = null;
  /** The text JSON.parse read the current value from (after repairs), while it is checked. */
  private parsedText = '';
  /** Colons outside strings in the value being scanned: its objects' keys, written out. */
  private keysScanned = 0;
  private inString = false;
  /** Where, in the file, the string that inString is inside opens. */
  private stringOpen = 0;
  /**
   * Where, in the file, a closing quote goes that a text of the file's field being scanned lost
   * (lostQuoteInValue, lostQuoteCut).
   */
  private lostQuotes: number[] = [];
  /** Where stringEnd, having run out of bytes, looks again from. */
  private stringResume = 0;
  private itemIndex = 0;
  /**
   * What came last in the top-level object and in the items list: its opening, a value, or a
   * comma. Commas are checked here, not by JSON.parse: one missing, doubled or before the closing
   * bracket is read past and reported (`json.comma`, `json.trailing-comma`). Inside an item,
   * `lenientJson` repairs the same after JSON.parse has refused it.
   */
  private fieldsAfter: Separator = 'open';
  private itemsAfter: Separator = 'open';
  /** Whether the file has a `standard_charge_information` value (the schemas require one). */
  private hasItems = false;
  /** Whether the hospital's name or licence may still follow the items (see ensureHeader). */
  identityPending = false;
  /** Whether the items are read before the file declared its version (see ensureHeader). */
  private versionPending = false;
  /** Whether the object was written inside a list whose closing bracket is still to come. */
  private inList = false;
  /** Bytes after the closing brace from the first that is not white space or NUL padding. */
  private afterEnd = 0;
  private afterEndStart = '';
  private readonly fields = new Map<string, unknown>();
  private readonly decoder = new Utf8OrCp1252Decoder();
  private readonly unknownFields = new UnknownFields();
  private readonly names: NameNormaliser;
  private ctx: RuleContext | null = null;
  private codeTypes: ReadonlySet<string> = CODE_TYPES_V3_SET;

  constructor(private readonly report: ValidationReport) {
    this.names = new NameNormaliser(report);
  }

  push(chunk: Buffer): void {
    // Keep what is still needed: the value being scanned (for one being skipped, only the last
    // KB before the scan point, where backslashes may escape a quote), or the unread rest.
    let keep = this.pos;
    if (this.state === IN_VALUE || this.state === IN_ITEM) {
      keep = this.oversized ? Math.max(0, this.scanPos - 1024) : this.tokenStart;
    }
    this.dropped += Math.min(keep, this.buf.length);
    const chunkAt = this.dropped + this.buf.length - Math.min(keep, this.buf.length);
    let k = chunk.length - 1;
    while (k >= 0 && (isSpace(chunk[k] as number) || chunk[k] === 0)) k--;
    if (k >= 0) this.lastText = { byte: chunk[k] as number, at: chunkAt + k };
    this.buf = keep >= this.buf.length ? chunk : Buffer.concat([this.buf.subarray(keep), chunk]);
    this.pos -= keep;
    this.tokenStart -= keep;
    this.scanPos -= keep;
    this.run();
  }

  end(): void {
    // A broken item's end that waited on what follows it (listEndsAt) is decided now.
    if (this.state === IN_ITEM || this.state === ITEM_TAIL || this.state === ITEMS) {
      this.ended = true;
      if (this.state === IN_ITEM) this.pos = Math.min(this.pos, this.scanPos);
      this.run();
      // An item still open at the file's end lacks a closing bracket: the next item may start
      // inside one of its lists. So may one whose end was the file's last byte, which run() left
      // waiting (itemEnded), nothing after it to look at; without a next item in it, it is read.
      while (this.state === IN_ITEM && !this.oversized) {
        const next = this.rejectUpToItemInList();
        if (next !== -1) this.pos = next;
        else if (this.itemEnded) this.pos = this.tokenStart;
        else break;
        this.run();
      }
    }
    // The file's last text may have lost its closing quote: what follows it closes the rest.
    if ((this.state === IN_ITEM || this.state === IN_VALUE) && this.closeLastText()) this.run();
    // A comment after the closing brace with no line end after it, or a slash alone.
    if (this.state === DONE && this.pos < this.buf.length) {
      if (this.buf[this.pos + 1] === SLASH) this.report.add('json.comment', 'file');
      else this.countAfterEnd(this.pos);
    }
    if (this.state !== DONE) {
      if (this.state === START) {
        throw new MrfReadError('not-a-mrf', 'The file holds no JSON object.');
      }
      if (!this.lastItemTookEnd()) {
        throw (
          this.brokenEnd() ??
          new MrfReadError(
            'truncated-json',
            `The JSON file ends before it is complete (after ${this.itemIndex} items of ${ITEMS_KEY}): ` +
              'it was probably cut short while being published or downloaded.',
          )
        );
      }
      // Read as if the list and the file ended where the item did; the item was rejected.
      this.report.add('json.last-item-took-end', `${ITEMS_KEY}[${this.itemIndex - 1}]`);
      this.state = DONE;
    }
    this.ensureHeader(true);
    if (this.versionPending) this.settleVersion();
    this.decoder.reportRest(this.report);
    this.completeHeader(true);
    this.identityPending = false;
    if (this.header) checkHeader(this.header, this.report);
    if (!this.hasItems) this.report.add('required.standard_charge_information', ITEMS_KEY);
    // An empty list, which the schemas forbid, is said as any other (listOf); streamed, it is
    // known only here. The load then refuses the file: it lists no charges.
    else if (this.itemIndex === 0)
      this.report.add('json.empty-value', ITEMS_KEY, `${ITEMS_KEY} []`);
    this.onModifiers(this.fields.get(MODIFIERS_KEY));
    this.unknownFields.check(Object.fromEntries(this.fields), 'file', 'file');
    this.unknownFields.report(this.report);
    if (this.afterEnd > 0) {
      const start = JSON.stringify(this.afterEndStart);
      this.report.add('json.after-end', 'file', `${this.afterEnd} bytes, starting ${start}`);
    }
  }

  /**
   * Whether the last item, the only broken one, took the list's closing bracket and the file's
   * closing brace for its own: a bracket closed one of its braces, and it ended with the file's
   * last brace. A file cut short never does (no bracket closes a brace in the start of a whole
   * file), so the items before it are kept, when who the hospital is and the version were read
   * before the list.
   */
  private lastItemTookEnd(): boolean {
    const item = this.closedEarly;
    return (
      this.state === ITEM_TAIL &&
      item !== null &&
      item.index === this.itemIndex - 1 &&
      this.damagedFrom === item.index &&
      this.lastText !== null &&
      item.end === this.lastText.at + 1 &&
      // Fields after the list would have been taken too: the hospital and version came before.
      !this.identityPending &&
      !this.versionPending
    );
  }

  /**
   * At the file's end, inside a text that never closed (in an item, or a file's field): when
   * what follows its last character is only white space and the closing brackets and braces of
   * what is open, kind for kind, down to the file's own, the text lost its closing quote. (A
   * file cut short inside a text has no such ending.) The quote is put back there, said, and the
   * rest is read on. Returns whether it was.
   */
  private closeLastText(): boolean {
    const b = this.buf;
    const text = this.state === IN_VALUE && this.tokenFirst === QUOTE;
    if (this.oversized || !(text || this.inString)) return false;
    // What closes what is open, innermost first (either, past the 31 levels kinds keeps).
    const closers: number[] = [];
    if (!text) {
      for (let d = 0, k = this.kinds; d < this.depth; d++, k >>>= 1)
        closers.push(d >= 31 ? -1 : (k & 1) === 1 ? 0x7d : 0x5d);
    }
    if (this.state === IN_ITEM) closers.push(0x5d);
    closers.push(0x7d);
    if (this.inList) closers.push(0x5d);
    let at = b.length;
    let left = closers.length;
    for (; at > this.tokenStart + 1; at--) {
      const c = b[at - 1] as number;
      if (isSpace(c) || c === 0) continue;
      const closer = left > 0 ? closers[left - 1] : undefined;
      if (!(c === closer || (closer === -1 && (c === 0x7d || c === 0x5d)))) break;
      left--;
    }
    if (left > 0 || b[at - 1] === BACKSLASH) return false;
    this.buf = Buffer.concat([b.subarray(0, at), Buffer.from('"'), b.subarray(at)]);
    if (this.lastText) this.lastText.at++;
    this.scanPos = at;
    this.stringResume = at;
    this.report.add(
      'json.unclosed-string',
      this.state === IN_ITEM ? `${ITEMS_KEY}[${this.itemIndex}]` : this.key,
    );
    return true;
  }

  /**
   * The error for a file that ends before its object does, when it is broken rather than only
   * cut short (or may be either), or null. A file cut short is the start of a whole one, in which
   * no bracket closes a brace; nor does it end in a closing brace while inside a string or after
   * a broken list. One whose last top-level value ended at its last brace is either.
   */
  private brokenEnd(): MrfReadError | null {
    const last = this.lastText?.byte;
    const lastIsClosing = last === 0x7d || (this.inList && last === 0x5d);
    const pairs = 'braces, brackets or quotes do not pair up';
    const state = this.state;
    if (
      state === ITEM_TAIL ||
      (state === IN_ITEM && (this.unbalanced || (this.inString && lastIsClosing))) ||
      (state === ITEMS && this.listDamaged && lastIsClosing)
    ) {
      const from = this.listDamaged ? this.damagedFrom : this.itemIndex;
      return new MrfReadError(
        'invalid-json',
        `The JSON's ${pairs} from item ${from + 1} of ${ITEMS_KEY} on (one is missing or too ` +
          'many), so where its items end cannot be told.',
      );
    }
    // The last top-level value took the file's closing brace for its own.
    const tookEnd =
      state === KEY && this.lastText !== null && this.lastValue?.end === this.lastText.at + 1;
    const value =
      state === IN_VALUE && (this.unbalanced || (this.inString && lastIsClosing))
        ? this.key
        : tookEnd && this.lastValue?.unbalanced
          ? this.lastValue.key
          : null;
    if (value !== null)
      return new MrfReadError(
        'invalid-json',
        `The JSON's ${pairs} in the value of ${value} (one is missing or too many), so the ` +
          'rest of the file was read into it.',
      );
    if (tookEnd && this.lastValue)
      return new MrfReadError(
        'truncated-json',
        `The JSON file ends where the value of ${this.lastValue.key} ends, without a closing ` +
          'brace of its own: a brace or bracket in that value is missing (it took the file’s ' +
          'for its own), or the file was cut short right after it.',
      );
    return null;
  }

  /** A top-level comma: one after a value is as it should be; any other is reported, and read past. */
  private comma(after: Separator, location: string): Separator {
    if (after !== 'value') this.report.add('json.comma', location, 'extra comma');
    return 'comma';
  }

  /**
   * Counts what follows the document's closing brace: a second document written after the first,
   * or the tail of a broken export, is not read, and the report must say so rather than drop it
   * unseen.
   */
  private skipAfterEnd(from: number): number {
    const b = this.buf;
    let i = from;
    if (this.afterEnd === 0) {
      // The list's closing bracket, when the object was written inside one, is no text after it.
      for (; i < b.length; i++) {
        const c = b[i] as number;
        if (c === 0x5d && this.inList) this.inList = false;
        else if (!isSpace(c) && c !== 0) break;
      }
      if (i === b.length) return i;
      // A comment is read past (the loop's check) when it is one; other text is counted.
      if (b[i] === SLASH && (i + 1 === b.length || isCommentStart(b[i + 1] as number))) return i;
    }
    return this.countAfterEnd(i);
  }

  /** Counts the rest of the buffer from i as text after the end, the first of it kept to show. */
  private countAfterEnd(i: number): number {
    const b = this.buf;
    if (this.afterEnd === 0) this.afterEndStart = b.toString('utf8', i, Math.min(b.length, i + 40));
    this.afterEnd += b.length - i;
    return b.length;
  }

  /** Whether the scanner is between values, where a comment may stand. */
  private betweenValues(): boolean {
    const state = this.state;
    if (state === DONE) return this.afterEnd === 0;
    return state !== IN_VALUE && state !== IN_ITEM;
  }

  /**
   * The end of the comment starting at i: -1 when more bytes are needed; i itself when the slash
   * starts no comment (the state's own rules then say what it is).
   */
  private commentEnd(i: number): number {
    const b = this.buf;
    if (i + 1 >= b.length) return -1;
    const second = b[i + 1] as number;
    if (!isCommentStart(second)) return i;
    const end = second === SLASH ? b.indexOf(0x0a, i + 2) : b.indexOf('*/', i + 2);
    if (end !== -1) return second === SLASH ? end + 1 : end + 2;
    if (b.length - i > MAX_COMMENT_BYTES) {
      // After the object: text after its end, counted, not a reason to refuse the file.
      if (this.state === DONE) return this.countAfterEnd(i);
      throw new MrfReadError(
        'invalid-json',
        `The JSON has a comment running over ${MAX_COMMENT_BYTES >> 20} MB without its end ` +
          `(after ${this.itemIndex} items): the file is broken.`,
      );
    }
    return -1;
  }

  private run(): void {
    const b = this.buf;
    const n = b.length;
    let i = this.pos;
    while (i < n) {
      const c = b[i] as number;
      if (c === SLASH && this.betweenValues()) {
        // A comment between fields or items, as JavaScript and JSONC allow: read past.
        const end = this.commentEnd(i);
        if (end === -1) {
          this.pos = i;
          return;
        }
        if (end > i) {
          // (Not when it turned out text after the object's end, counted as such.)
          if (this.afterEnd === 0) {
            this.report.add('json.comment', this.state === ITEMS ? ITEMS_KEY : 'file');
          }
          i = end;
          continue;
        }
      }
      switch (this.state) {
        case START:
          if (isSpace(c)) {
            i++;
            break;
          }
          if (c === 0xef && this.dropped + i === 0) {
            // A UTF-8 byte-order mark, which many Windows tools write before the text.
            if (n < 3) {
              this.pos = i;
              return;
            }
            if (b[1] === 0xbb && b[2] === 0xbf) {
              i += 3;
              break;
            }
          }
          if (c === 0x5b && !this.inList) {
            // [ { … } ]: the object written inside a list, as some exporters do.
            this.inList = true;
            this.report.add('json.in-list', 'file');
            i++;
            break;
          }
          if (c !== 0x7b) {
            throw new MrfReadError(
              'not-a-mrf',
              'The JSON file does not start with an object ({ … }), so it is not a CMS MRF.',
            );
          }
          this.state = KEY;
          i++;
          break;
        case KEY: {
          if (isSpace(c)) {
            i++;
            break;
          }
          if (c === 0x2c) {
            this.fieldsAfter = this.comma(this.fieldsAfter, 'file');
            i++;
            break;
          }
          if (c === 0x7d) {
            if (this.fieldsAfter === 'comma') this.report.add('json.trailing-comma', 'file');
            this.state = DONE;
            i++;
            break;
          }
          if (c !== QUOTE) throw this.syntax(i);
          const end = endOfString(b, i + 1);
          if (end === -1) {
            this.pos = i;
            return;
          }
          try {
            this.key = JSON.parse(b.toString('utf8', i, end + 1)) as string;
          } catch {
            throw this.syntax(i); // a raw line break or a bad escape in a key
          }
          if (this.fieldsAfter === 'value')
            this.report.add('json.comma', this.key, 'missing comma');
          this.respell();
          this.state = COLON;
          i = end + 1;
          break;
        }
        case COLON:
          if (isSpace(c)) {
            i++;
            break;
          }
          if (c !== 0x3a) throw this.syntax(i);
          this.state = VALUE;
          i++;
          break;
        case VALUE:
          if (isSpace(c)) {
            i++;
            break;
          }
          if (this.key === ITEMS_KEY && c === 0x5b) {
            this.hasItems = true;
            this.itemsAfter = 'open';
            this.state = ITEMS;
            i++;
            break;
          }
          this.startToken(i);
          this.state = IN_VALUE;
          break;
        case IN_VALUE: {
          const end = this.scan();
          if (end === -1) {
            this.pos = n;
            this.checkSize(n);
            return;
          }
          // A text that lost its closing quote ran on into the next field's name: it ends there.
          const cut = this.oversized ? -1 : this.lostQuoteCut(end);
          if (cut !== -1) this.lostQuotes.push(this.dropped + cut);
          const valueEnd = cut === -1 ? end : cut;
          this.lastValue = {
            key: this.key,
            end: this.dropped + valueEnd,
            unbalanced: this.unbalanced,
          };
          if (this.oversized) this.skipped(end, 'json.value-too-large', this.key);
          else {
            for (let k = 0; k < this.lostQuotes.length; k++)
              this.report.add('json.unclosed-string', this.key);
            const value = this.parse(this.tokenStart, valueEnd, this.key, this.lostQuotes);
            // A top-level value is small (but for items not in a list): its keys counted apart.
            if (value !== undefined && this.keysScanned > keysIn(value))
              this.reportDuplicateKeys(this.key);
            this.parsedText = '';
            this.onField(this.key, value);
          }
          this.fieldsAfter = 'value';
          this.state = KEY;
          i = valueEnd;
          break;
        }
        case ITEMS: {
          if (isSpace(c)) {
            i++;
            break;
          }
          if (c === 0x2c) {
            this.itemsAfter = this.comma(this.itemsAfter, `${ITEMS_KEY}[${this.itemIndex}]`);
            i++;
            break;
          }
          const stray = this.startsNoItem(b, i, c);
          if (stray === MORE) {
            this.pos = i;
            return;
          }
          if (stray === 1) {
            this.strayText(i);
            break;
          }
          if (c === 0x5d) {
            if (this.itemsAfter === 'comma') this.report.add('json.trailing-comma', ITEMS_KEY);
            this.fieldsAfter = 'value';
            this.state = KEY;
            i++;
            break;
          }
          if (this.itemsAfter === 'value')
            this.report.add('json.comma', `${ITEMS_KEY}[${this.itemIndex}]`, 'missing comma');
          this.startToken(i);
          this.state = IN_ITEM;
          break;
        }
        case IN_ITEM: {
          const end = this.itemEnded ? this.scanPos : this.scan();
          this.itemEnded = false;
          // An item that ends where the file's text does took the list's closing bracket and the
          // file's closing brace for its own; whether the file ends there is known once more
          // bytes, or the end, have come. Such an item, or one that grows past what is held,
          // may lack a list's closing bracket: the next item may start inside that list.
          const atTextEnd = end !== -1 && !this.oversized && onlySpaceFrom(b, end);
          if (atTextEnd && !this.ended) {
            this.itemEnded = true;
            this.scanPos = end;
            this.pos = n;
            return;
          }
          const tooLong = end === -1 && !this.oversized && n - this.tokenStart > MAX_VALUE_BYTES;
          const next = atTextEnd || tooLong ? this.rejectUpToItemInList() : -1;
          if (next !== -1) {
            i = next;
            break;
          }
          if (end === -1) {
            this.pos = n;
            this.checkSize(n);
            return;
          }
          const index = this.itemIndex++;
          const location = `${ITEMS_KEY}[${index}]`;
          // An item a bracket short may be whole but for a text that lost its closing quote.
          const items = this.oversized || this.broken !== UNCLOSED ? 1 : this.lostQuoteIn(end);
          if (this.oversized) {
            this.skipped(end, 'json.item-too-large', location);
            this.report.rejectedRecords++;
          } else if (this.broken === CLOSED_EARLY || items === 0) {
            this.damaged(index);
            this.report.add(
              'json.unbalanced-item',
              location,
              this.broken === UNCLOSED
                ? 'a closing brace or bracket missing'
                : 'a closing brace or bracket too many, or an opening missing',
            );
            this.report.rejectedRecords++;
          } else if (items > 1) this.readItems(end, index, items);
          else if (!this.readItem(end, location)) this.damaged(index);
          this.itemsAfter = this.broken === UNCLOSED ? this.readOnAt(end) : 'value';
          if (this.broken === CLOSED_EARLY) {
            this.closedEarly = { index, end: this.dropped + end };
            this.state = this.startTail();
          } else this.state = ITEMS;
          i = end;
          break;
        }
        case ITEM_TAIL: {
          const end = this.skipTail(i);
          if (end === -1) return;
          this.itemsAfter = this.readOnAt(end);
          this.state = ITEMS;
          i = end;
          break;
        }
        case DONE:
          i = this.skipAfterEnd(i);
          break;
        default:
          throw new Error(`unreachable scanner state ${this.state}`);
      }
    }
    this.pos = i;
  }

  /**
   * Whether the byte c at i, where an item should start, starts none (1, 0, or MORE): the rest of
   * an item that a stray closing brace ended (a closing brace, a colon, a key), or, in a broken
   * list, a bracket that may be a broken item's (the list ends where the file's fields or its end
   * follow).
   */
  private startsNoItem(b: Buffer, i: number, c: number): number {
    if (c === 0x5d) {
      if (!this.listDamaged) return 0;
      const ends = listEndsAt(b, i, this.ended, this.inList);
      return ends === MORE ? MORE : ends === 0 ? 1 : 0;
    }
    if (c === QUOTE) return keyStartsAt(b, i, this.ended);
    return c === 0x7d || c === COLON_BYTE ? 1 : 0;
  }

  /**
   * In the item being scanned, which did not close by the file's end (or closed only there) or
   * within MAX_VALUE_BYTES, the first object after a comma inside one of its lists whose first
   * key is one only items have: where the next item most likely starts, the item lacking the
   * bracket that closed that list (a span cut out or written twice). -1 when there is none.
   * scan() looks for this only where a field should follow (no value is ever an object there);
   * inside a list such an object may be a value of a field no schema defines, so it is looked
   * for only once the item is known to be broken.
   */
  private itemInList(): number {
    const b = this.buf;
    let depth = 0;
    let kinds = 0;
    for (let i = this.tokenStart; i < b.length; i++) {
      const c = b[i] as number;
      if (c === QUOTE) {
        const end = this.stringEnd(b, i + 1);
        if (end === -1) return -1;
        i = end;
      } else if (c === 0x7b || c === 0x5b) {
        if (
          c === 0x7b &&
          depth > 1 &&
          depth <= 31 &&
          (kinds & 1) === 0 &&
          previousSignificant(b, i, this.tokenStart) === 0x2c &&
          itemStartsAt(b, i) === 1
        )
          return i;
        if (depth < 31) kinds = (kinds << 1) | ((c >> 5) & 1);
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth < 31) kinds >>>= 1;
      }
    }
    return -1;
  }

  /**
   * Where itemInList finds the next item to start, the item being scanned rejected up to there
   * and the list read on from there; -1 (nothing done) when it finds none. At the file's end,
   * where the list ends instead, when the items up to there were only a quote short
   * (lostQuoteToListEnd).
   */
  private rejectUpToItemInList(): number {
    // First, though, a text in it may have lost its closing quote, taking brackets for its own.
    const listEnd = this.ended ? this.lostQuoteToListEnd() : -1;
    if (listEnd !== -1) return listEnd;
    const next = this.itemInList();
    if (next === -1) return -1;
    const index = this.itemIndex++;
    const end = this.commaBefore(next, this.tokenStart);
    const items = end > this.tokenStart ? this.lostQuoteIn(end) : 0;
    if (items > 0) {
      // Not broken after all: a text lost its closing quote, and its brackets were read as text.
      this.readItems(end, index, items);
      this.itemsAfter = 'comma';
      this.itemEnded = false;
      this.state = ITEMS;
      return next;
    }
    this.damaged(index);
    this.report.add(
      'json.unbalanced-item',
      `${ITEMS_KEY}[${index}]`,
      'a closing bracket missing (the next item started inside one of its lists)',
    );
    this.report.rejectedRecords++;
    this.itemsAfter = 'comma';
    this.itemEnded = false;
    this.state = ITEMS;
    return next;
  }

  /** Text at i where an item should start: said, and read past as a broken item's tail. */
  private strayText(i: number): void {
    const b = this.buf;
    this.damaged(Math.max(0, this.itemIndex - 1));
    this.report.add(
      'json.stray-text',
      this.itemIndex > 0 ? `${ITEMS_KEY}[${this.itemIndex - 1}]` : ITEMS_KEY,
      JSON.stringify(b.toString('utf8', i, Math.min(b.length, i + 40))),
    );
    this.state = this.startTail();
  }

  /** Marks the list of items broken, at item `index` if it was whole until then. */
  private damaged(index: number): void {
    if (!this.listDamaged) this.damagedFrom = index;
    this.listDamaged = true;
  }

  private startTail(): number {
    this.tailDepth = 0;
    this.tailAfterComma = false;
    return ITEM_TAIL;
  }

  /**
   * Reads past the tail of an item that ended early (CLOSED_EARLY), from i: up to the closing
   * brace that ends it, the next item, or the list's end. Returns where to read on from, or -1
   * when more bytes are needed (`pos` then where to take up).
   */
  private skipTail(from: number): number {
    const b = this.buf;
    const n = b.length;
    let depth = this.tailDepth;
    let afterComma = this.tailAfterComma;
    let i = from;
    const later = (at: number): number => {
      this.tailDepth = depth;
      this.tailAfterComma = afterComma;
      this.pos = at;
      if (n - at > MAX_VALUE_BYTES) throw this.syntax(at);
      return -1;
    };
    for (; i < n; i++) {
      const c = b[i] as number;
      if (isSpace(c)) continue;
      if (c === QUOTE) {
        const end = this.stringEnd(b, i + 1);
        if (end === -1) return later(i);
        i = end;
      } else if (c === 0x7b && afterComma && depth <= 0) {
        const starts = itemStartsAt(b, i);
        if (starts === MORE) return later(i);
        if (starts === 1) return this.commaBefore(i, from);
        depth++;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d) {
        if (--depth < 0) return i + 1;
      } else if (c === 0x5d && --depth < 0) {
        const ends = listEndsAt(b, i, this.ended, this.inList);
        if (ends === MORE) {
          depth++;
          return later(i);
        }
        if (ends === 1) return i;
      }
      afterComma = c === 0x2c;
    }
    return later(n);
  }

  private syntax(at: number): MrfReadError {
    const near = this.buf.toString(
      'utf8',
      Math.max(0, at - 20),
      Math.min(this.buf.length, at + 20),
    );
    return new MrfReadError(
      'invalid-json',
      `The JSON is malformed near ${JSON.stringify(near)} (after ${this.itemIndex} items).`,
    );
  }

  /** Past MAX_VALUE_BYTES, the value being scanned is skipped: memory stays flat. */
  private checkSize(n: number): void {
    if (!this.oversized && n - this.tokenStart > MAX_VALUE_BYTES) this.oversized = true;
  }

  private skipped(end: number, rule: 'json.item-too-large' | 'json.value-too-large', at: string) {
    const bytes = this.dropped + end - this.tokenAt;
    this.report.add(rule, at, `${(bytes / 1e6).toFixed(1)} MB`);
    this.oversized = false;
  }

  private startToken(at: number): void {
    this.tokenStart = at;
    this.tokenFirst = this.buf[at] as number;
    this.tokenAt = this.dropped + at;
    this.scanPos = at;
    this.depth = 0;
    this.kinds = 0;
    this.unbalanced = false;
    this.broken = WHOLE;
    this.keysScanned = 0;
    this.inString = false;
    this.lostQuotes = [];
  }

  /**
   * The quote that closes the string whose text starts at `from`: the first one not escaped that
   * closesString. One followed by text is taken as text, so that a quote written unescaped, or
   * one lost, costs the value it is in rather than every value after it (the quotes' pairing
   * would be turned around to the file's end). -1 when the buffer ends before that can be told,
   * `stringResume` then where to look again from once more bytes have come.
   */
  private stringEnd(b: Buffer, from: number): number {
    let k = endOfString(b, from);
    while (k !== -1) {
      const closes = closesString(b, k);
      if (closes === 1) return k;
      if (closes === MORE) {
        this.stringResume = k;
        return -1;
      }
      k = endOfString(b, k + 1);
    }
    this.stringResume = b.length;
    return -1;
  }

  /** Advances over the current value; returns its end (exclusive) or -1 when more bytes are needed. */
  private scan(): number {
    const b = this.buf;
    const n = b.length;
    let i = this.scanPos;
    const first = this.tokenFirst;
    if (first === QUOTE) {
      const end = this.stringEnd(b, Math.max(i, this.tokenStart + 1));
      if (end === -1) {
        this.scanPos = this.stringResume;
        return -1;
      }
      return end + 1;
    }
    if (first !== 0x7b && first !== 0x5b) {
      while (i < n) {
        const c = b[i] as number;
        if (c === 0x2c || c === 0x7d || c === 0x5d || c === SLASH || isSpace(c)) {
          // A value that is nothing (a "}" where an item should start): the structure is broken,
          // and going on would read the same byte forever.
          if (i === this.tokenStart) throw this.syntax(i);
          return i;
        }
        i++;
      }
      this.scanPos = n;
      return -1;
    }
    let depth = this.depth;
    let kinds = this.kinds;
    let keys = this.keysScanned;
    const item = this.state === IN_ITEM;
    if (this.inString) {
      const end = this.stringEnd(b, i);
      if (end === -1) {
        this.scanPos = this.stringResume;
        return -1;
      }
      this.inString = false;
      i = this.afterString(this.stringOpen - this.dropped, end, item, depth, kinds);
    }
    while (i < n) {
      const c = b[i] as number;
      if (c === QUOTE) {
        // What nearly every string is followed by, at once (`"}`, `"]`, `","`, `":"`, `":1`): no
        // need to look further.
        let end = endOfString(b, i + 1);
        const next = end === -1 ? -1 : b[end + 1];
        const closes =
          next === 0x7d ||
          next === 0x5d ||
          ((next === 0x2c || next === COLON_BYTE) && mayFollowSeparator(b[end + 2] ?? 0));
        if (!closes) end = this.stringEnd(b, i + 1);
        if (end === -1) {
          this.inString = true;
          this.stringOpen = this.dropped + i;
          this.depth = depth;
          this.kinds = kinds;
          this.keysScanned = keys;
          this.scanPos = this.stringResume;
          return -1;
        }
        i = this.afterString(i, end, item, depth, kinds);
        continue;
      }
      // The kind of a brace or bracket, from its code: 1 for { and }, 0 for [ and ].
      if (c === 0x7b || c === 0x5b) {
        if (
          item &&
          c === 0x7b &&
          depth > 0 &&
          (this.unbalanced || (depth <= 31 && (kinds & 1) === 1)) &&
          previousSignificant(b, i, Math.max(0, this.tokenStart)) === 0x2c
        ) {
          // An object after a comma where fields should follow: if an item's field opens it, the
          // next item starts here, and the one scanned lacks a closing brace or bracket.
          const starts = itemStartsAt(b, i);
          if (starts === MORE) return this.scanLater(i, depth, kinds, keys);
          if (starts === 1) {
            this.broken = UNCLOSED;
            this.keysScanned = keys;
            return this.commaBefore(i, Math.max(0, this.tokenStart));
          }
        }
        if (depth < 31) kinds = (kinds << 1) | ((c >> 5) & 1);
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        if (depth <= 31 && (kinds & 1) !== ((c >> 5) & 1)) {
          if (item && depth === 1) {
            // The item's own brace closed by a bracket: the list's end, when the file's fields
            // or its end follow, and the item lacks a closing brace or bracket.
            const ends = listEndsAt(b, i, this.ended, this.inList);
            if (ends === MORE) return this.scanLater(i, depth, kinds, keys);
            if (ends === 1) {
              this.broken = UNCLOSED;
              this.keysScanned = keys;
              return i;
            }
          }
          this.unbalanced = true;
        }
        depth--;
        if (depth < 31) kinds >>>= 1;
        if (depth === 0) {
          if (item && this.unbalanced) this.broken = CLOSED_EARLY;
          this.keysScanned = keys;
          return i + 1;
        }
      } else if (c === COLON_BYTE) keys++;
      i++;
    }
    this.keysScanned = keys;
    this.depth = depth;
    this.kinds = kinds;
    this.scanPos = n;
    return -1;
  }

  /**
   * Where to read on from for the item starting at i: the comma before it, or, when that was let
   * go of with an earlier chunk (before `from`), the item itself (see readOnAt).
   */
  private commaBefore(i: number, from: number): number {
    const comma = this.buf.lastIndexOf(0x2c, i);
    return comma >= from ? comma : i;
  }

  /** What came last when a broken item's reading goes on at `at`: an item there had its comma. */
  private readOnAt(at: number): Separator {
    return this.buf[at] === 0x7b ? 'comma' : 'value';
  }

  /**
   * Where the scan goes on after the string from `open` to `close`: after it, or, in a file's
   * field (small, and few), where its text ends if it lost its closing quote: it is read to
   * where the next field's name starts, and the brackets between count. (An item's are looked
   * for only once it is found broken: lostQuoteIn.)
   */
  private afterString(
    open: number,
    close: number,
    item: boolean,
    depth: number,
    kinds: number,
  ): number {
    const cut = item ? -1 : this.lostQuoteInValue(open, close, depth, kinds);
    if (cut === -1) return close + 1;
    this.lostQuotes.push(this.dropped + cut);
    return cut;
  }

  /**
   * Where the text of the string from `open` to `close` ends, in a file's field being scanned,
   * when it lost its closing quote (lostQuoteEnd): a colon follows it, and it is a value (after
   * a colon, or in a list). -1 when it did not.
   */
  private lostQuoteInValue(open: number, close: number, depth: number, kinds: number): number {
    const b = this.buf;
    if (b[nextSignificant(b, close + 1)] !== COLON_BYTE) return -1;
    const inList = depth <= 31 && (kinds & 1) === 0;
    if (!inList && previousSignificant(b, open, this.tokenStart) !== COLON_BYTE) return -1;
    // Latin-1 keeps one character a byte, so the text's offsets are the buffer's.
    const cut = lostQuoteEnd(b.toString('latin1', open, close + 1), 0, close - open, true);
    if (cut === -1) return -1;
    // The brackets the text took must close what is open, kind for kind, and leave the name in
    // an object, or after the field's value.
    let d = depth;
    let k = kinds;
    for (let j = open + cut, name = b.lastIndexOf(QUOTE, close - 1); j < name; j++) {
      const c = b[j] as number;
      if (c === 0x7d || c === 0x5d) {
        if (d === 0 || (d <= 31 && (k & 1) !== ((c >> 5) & 1))) return -1;
        d--;
        if (d < 31) k >>>= 1;
      } else if (c === 0x7b || c === 0x5b) {
        if (d === 0) return -1;
        if (d < 31) k = (k << 1) | ((c >> 5) & 1);
        d++;
      }
    }
    return d > 0 && d <= 31 && (k & 1) === 0 ? -1 : open + cut;
  }

  /** Reads the item from tokenStart to end; returns whether it is one (see isItemLike). */
  private readItem(end: number, location: string): boolean {
    const item = this.parse(this.tokenStart, end, location);
    if (item !== undefined) {
      const keysBefore = this.unknownFields.keys;
      this.onItem(item, location);
      if (this.keysScanned > this.unknownFields.keys - keysBefore)
        this.reportDuplicateKeys(location);
    }
    this.parsedText = '';
    return isItemLike(item);
  }

  /**
   * At the file's end, for the item being scanned, which never closed: where the list of items
   * ends (listEndsAt), when the items up to there are whole but for a text that lost its closing
   * quote (lostQuoteIn), those items read. -1 when there is no such place.
   */
  private lostQuoteToListEnd(): number {
    const b = this.buf;
    for (let i = b.indexOf(0x5d, this.tokenStart); i !== -1; i = b.indexOf(0x5d, i + 1)) {
      if (listEndsAt(b, i, true, this.inList) !== 1) continue;
      const items = this.lostQuoteIn(i);
      if (items === 0) continue;
      this.readItems(i, this.itemIndex++, items);
      this.itemsAfter = 'value';
      this.itemEnded = false;
      this.state = ITEMS;
      return i;
    }
    return -1;
  }

  /**
   * `count` items from tokenStart to end, the first numbered `index` (see lostQuoteIn), read. Of
   * more than one, itemIndex is moved on past the others.
   */
  private readItems(end: number, index: number, count: number): void {
    if (count === 1) {
      this.readItem(end, `${ITEMS_KEY}[${index}]`);
      return;
    }
    const items = this.parse(this.tokenStart, end, `${ITEMS_KEY}[${index}]`, [], true);
    this.itemIndex += count - 1;
    if (Array.isArray(items))
      items.forEach((item, k) => this.onItem(item, `${ITEMS_KEY}[${index + k}]`));
    this.parsedText = '';
  }

  /**
   * How many items there are from tokenStart to end, which the scanner took for one a closing
   * brace or bracket short, when they are whole but for a text that lost its closing quote: the
   * brackets after it, to the next field's name, were taken as text (see lostQuoteEnd). Mostly
   * one; two or more when the brackets it took ended its item and began the next. 0 when they
   * are not so. Tried on the bytes as Latin-1, so that nothing is decoded, or said, twice; parse
   * then reads them so.
   */
  private lostQuoteIn(end: number): number {
    const repaired = lenientJson(this.buf.toString('latin1', this.tokenStart, end), true);
    if (!repaired || repaired.unclosedStrings === 0) return 0;
    try {
      JSON.parse(repaired.text);
      return 1;
    } catch {
      // Items one after another, as in their list.
    }
    try {
      const items: unknown = JSON.parse(`[${repaired.text}]`);
      return Array.isArray(items) && items.every(isItemLike) ? items.length : 0;
    } catch {
      return 0;
    }
  }

  /** Stops the scan at i, to be taken up there when more bytes have come. */
  private scanLater(i: number, depth: number, kinds: number, keys: number): number {
    this.depth = depth;
    this.kinds = kinds;
    this.keysScanned = keys;
    this.scanPos = i;
    return -1;
  }

  /**
   * Where a top-level text value ending at `end` (exclusive) that ran on into the next field's
   * name, a colon after it, ends (lostQuoteEnd), or -1. Only commas and white space may come
   * between: the scanner reads the fields on from there.
   */
  private lostQuoteCut(end: number): number {
    const b = this.buf;
    if (this.tokenFirst !== QUOTE || b[nextSignificant(b, end)] !== COLON_BYTE) return -1;
    // Latin-1 keeps one character a byte, so the text's offsets are the buffer's.
    const text = b.toString('latin1', this.tokenStart, end);
    const cut = lostQuoteEnd(text, 0, text.length - 1, false);
    return cut === -1 ? -1 : this.tokenStart + cut;
  }

  /**
   * The value from start to end, parsed, with a quote put in at each of `lostQuotes` (offsets in
   * the file, in order), or, with `list`, the values there, one after another, as a list;
   * undefined when it is broken.
   */
  private parse(
    start: number,
    end: number,
    location: string,
    lostQuotes: readonly number[] = [],
    list = false,
  ): unknown {
    let textValue = list ? '[' : '';
    let from = start;
    for (const at of lostQuotes) {
      const k = at - this.dropped;
      textValue += `${this.decoder.decodeComplete(this.buf.subarray(from, k), this.dropped + from)}"`;
      from = k;
    }
    textValue += this.decoder.decodeComplete(this.buf.subarray(from, end), this.dropped + from);
    if (list) textValue += ']';
    this.decoder.reportExamples(this.report, location);
    try {
      this.parsedText = textValue;
      return JSON.parse(textValue) as unknown;
    } catch (cause) {
      // The repairs alone first; then with a quote the writer did not escape taken as text.
      for (const quotesAsText of [false, true]) {
        const repaired = lenientJson(textValue, quotesAsText);
        if (!repaired) continue;
        try {
          this.parsedText = repaired.text;
          const value = JSON.parse(repaired.text) as unknown;
          for (const [repair, rule, detail] of REPAIRS) {
            const examples = repaired.examples[repair];
            for (let k = 0; k < repaired[repair]; k++)
              this.report.add(rule, location, detail(examples[k]));
          }
          return value;
        } catch {
          // Broken in another way too: reported as it was written.
        }
      }
      this.report.add('json.invalid-item', location, parseFailure(cause, textValue));
      this.report.rejectedRecords++;
      return undefined;
    }
  }

  /**
   * Says each key of the value's objects that was written twice, where its object is: JSON.parse
   * kept its last value (a second `payers_information` drops the first one's rates).
   */
  private reportDuplicateKeys(location: string): void {
    for (const { at, key } of duplicateKeys(this.parsedText))
      this.report.add('json.duplicate-key', `${location}${at}`, key);
  }

  /**
   * A top-level key that is a CMS field written another way ("Standard_Charge_Information",
   * "standard_charges_information") is read as that field, unless the file has it too.
   */
  private respell(): void {
    const key = this.key;
    if (FILE_FIELDS.has(key)) return;
    const field = this.unknownFields.spelled('file', key);
    // A second list of items, however its key is spelt, is read too.
    if (field === null || this.fields.has(field)) return;
    this.unknownFields.renamed(key, field);
    this.key = field;
  }

  private onField(key: string, value: unknown): void {
    if (key === ITEMS_KEY) {
      // Not a list (a list is streamed item by item and never comes here).
      this.hasItems ||= value !== null;
      const items = this.listOf(value, ITEMS_KEY, ITEMS_KEY);
      for (const item of items) this.onItem(item, `${ITEMS_KEY}[${this.itemIndex++}]`);
      return;
    }
    // JSON.parse keeps a key's last value; so does this, but says so.
    if (this.fields.has(key)) this.report.add('json.duplicate-key', 'file', key);
    this.fields.set(key, value);
    if (this.header) this.completeHeader();
  }

  /** Whether the version's schema lets its free-text fields be empty: those before 3.0.0 do. */
  private emptyTextAllowed(): boolean {
    return (this.ctx as RuleContext).version !== '3.0.0';
  }

  /**
   * A value the schema wants as a list: a list as it is, one entry (an object, or a string where
   * the list holds strings) as a list of one, with a warning, nothing as an empty list (null, or
   * a list with no entry, said as json.empty-value); anything else is the wrong type. What a file
   * writes without brackets is read, never dropped unseen.
   */
  private listOf(value: unknown, location: string, field: string, strings = false): unknown[] {
    if (Array.isArray(value)) {
      if (value.length === 0) this.report.add('json.empty-value', location, `${field} []`);
      return value;
    }
    if (value === undefined) return [];
    if (value === null) {
      this.report.add('json.empty-value', location, `${field} null`);
      return [];
    }
    if (isObject(value) || (strings && typeof value === 'string')) {
      this.report.add('json.single-as-list', location, field);
      return [value];
    }
    this.report.add('json.wrong-type', location, `${field} should be an array`);
    return [];
  }

  /**
   * Builds the header from the top-level fields read so far, at the first item (or at the end).
   * Files whose keys are in alphabetical order declare their version after the items. Until it
   * comes, the items are checked by the rules of 2.0.0, which reject nothing a later version
   * accepts (of 3.0.0 when keys only v3.0 has came first), and `settleVersion` reads it at the end.
   */
  private ensureHeader(atEnd = false): void {
    if (this.header) return;
    const declared = this.declaredVersion();
    let version: CmsVersion;
    let written: string | null = null;
    if (declared === null && !atEnd) {
      version = this.inferredVersion() === '3.0.0' ? '3.0.0' : '2.0.0';
      this.versionPending = true;
    } else {
      ({ version, declared: written } = resolveVersion(
        declared,
        this.inferredVersion(),
        this.report,
      ));
    }
    this.header = emptyHeader('json', version, written);
    // The items come first: who the hospital is may only be known at the end of the file.
    this.identityPending =
      !atEnd && !(this.fields.has('hospital_name') && this.fields.has('license_information'));
    this.ctx = { version, report: this.report };
    this.codeTypes =
      version === '3.0.0' || this.versionPending ? CODE_TYPES_V3_SET : CODE_TYPES_V2_SET;
    this.completeHeader();
  }

  /** The version declared after the items, or told by the keys, now that the file has ended. */
  private settleVersion(): void {
    const h = this.header as MrfHeader;
    const checked = h.version;
    const { version, declared } = resolveVersion(
      this.declaredVersion(),
      this.inferredVersion(),
      this.report,
    );
    h.version = version;
    h.declaredVersion = declared;
    this.ctx = { version, report: this.report };
    if (version !== checked) {
      this.report.add('version.after-items', 'version', `${version}, items checked as ${checked}`);
    }
  }

  private declaredVersion(): string | null {
    const declared = this.fields.get('version');
    return typeof declared === 'string' || typeof declared === 'number' ? String(declared) : null;
  }

  /** The version the keys tell: some only v3.0 has, or v2's `hospital_location`. */
  private inferredVersion(): CmsVersion | null {
    const f = this.fields;
    if (f.has('location_name') || f.has('attestation') || f.has('type_2_npi')) return '3.0.0';
    return f.has('hospital_location') ? '2.2.1' : null;
  }

  /**
   * Copies the top-level fields into the header; fields found after the items arrive late. What
   * their values break is reported on the `final` call only (at the end), so once.
   */
  private completeHeader(final = false): void {
    const h = this.header;
    if (!h) return;
    const f = this.fields;
    const r = final ? this.report : new ValidationReport();
    /** A list of strings; one string, or a number as NPIs are sometimes written, is a list of one. */
    const strings = (key: string): string[] => {
      const value = f.get(key);
      const lone = typeof value === 'string' || typeof value === 'number';
      if (lone) r.add('json.single-as-list', key, key);
      if (value === null) r.add('json.empty-value', key, `${key} null`);
      // The v2 schemas let an address or location name be empty; 3.0.0's do not.
      const emptyAllowed = h.version !== '3.0.0' && key !== 'type_2_npi';
      return (lone ? [value] : Array.isArray(value) ? value : []).flatMap((x: unknown) => {
        const t = jsonText(x, r, key, key, emptyAllowed);
        return t === null ? [] : [t];
      });
    };
    const name = f.get('hospital_name');
    if (typeof name === 'string')
      h.hospitalName = text(name, r, 'hospital_name', 'hospital_name') ?? '';
    const updated = f.get('last_updated_on');
    // A date written as a number (20260401) is read as its digits.
    if (typeof updated === 'string' || typeof updated === 'number') {
      if (typeof updated === 'number')
        r.add('json.wrong-type-read', 'last_updated_on', String(updated));
      h.lastUpdatedOn = isoDate(String(updated), r, 'last_updated_on');
    }
    h.locationNames = strings(f.has('location_name') ? 'location_name' : 'hospital_location');
    // 3.0.0 renamed it location_name (CMS's schema requires that): read, and said.
    if (h.version === '3.0.0' && !f.has('location_name') && f.has('hospital_location')) {
      r.add('v3.location-name', 'hospital_location');
    }
    h.addresses = strings('hospital_address');
    h.type2Npis = readNpis(strings('type_2_npi'), r, 'type_2_npi');
    let license = f.get('license_information');
    if (Array.isArray(license) && isObject(license[0])) {
      r.add(
        'json.wrong-type-read',
        'license_information',
        'a list, of which the first entry was read',
      );
      license = license[0];
    }
    if (isObject(license)) {
      if (final) this.unknownFields.check(license, 'license', 'license_information');
      const number: unknown = license.license_number;
      if (typeof number === 'number') r.add('json.wrong-type-read', 'license_number', `${number}`);
      h.licenseNumber =
        typeof number === 'number'
          ? `${number}`
          : jsonText(number, r, 'license_information', 'license_number');
      h.licenseState =
        typeof license.state === 'string' ? (text(license.state)?.toUpperCase() ?? null) : null;
    }
    const attestation = f.get('attestation') ?? f.get('affirmation');
    if (isObject(attestation)) {
      const key = f.has('attestation') ? 'attestation' : 'affirmation';
      if (final) this.unknownFields.check(attestation, 'attestation', key);
      const confirmed = attestation.confirm_attestation ?? attestation.confirm_affirmation;
      h.attestationConfirmed = typeof confirmed === 'boolean' ? confirmed : null;
      if (typeof confirmed === 'string' || typeof confirmed === 'number') {
        // A string or number where the schema wants a boolean: "true", "yes", 1.
        r.add('json.wrong-type-read', 'attestation', JSON.stringify(confirmed));
        h.attestationConfirmed = confirmation(String(confirmed), r, 'attestation');
      }
      const statement = attestation.attestation ?? attestation.affirmation;
      checkStatement(jsonText(statement, r, key, key), h.version, r, key);
      h.attesterName =
        typeof attestation.attester_name === 'string'
          ? text(attestation.attester_name, r, 'attestation', 'attester_name')
          : null;
    }
    h.generalContractProvisions = provisionsText(f.get('general_contract_provisions'), r);
  }

  private onItem(item: unknown, location: string): void {
    this.ensureHeader();
    const ctx = this.ctx as RuleContext;
    const r = this.report;
    if (!isObject(item)) {
      r.add('json.wrong-type', location, 'an item should be an object');
      r.rejectedRecords++;
      return;
    }
    const codeInItem = this.unknownFields.check(item, 'item', location);
    const before = r.rejectingErrors;
    const description = jsonText(item.description, r, location, 'description');
    if (description === null) r.add('required.description', location);
    const codes = this.codes(item.code_information, location);
    if (codeInItem) {
      // Its fields are CMS's code fields, counted with the item's: read as the entry they make.
      r.add('json.code-in-item', location, codeInItem.written.join(', '));
      codes.push(...this.codes([codeInItem.entry], location));
      this.unknownFields.keys -= codeInItem.written.length;
    }
    let drugUnit: number | null = null;
    let drugTypeValue: string | null = null;
    let unitGiven = false;
    let typeGiven = false;
    const drug = item.drug_information;
    if (isObject(drug)) {
      this.unknownFields.check(drug, 'drug', `${location}.drug_information`);
      // v2.2 typed the unit as a string, v3.0 as a number: both are fine in their version.
      // One that cannot be read is none (DRUG_UNIT), never NaN.
      drugUnit =
        typeof drug.unit === 'string' && ctx.version !== '3.0.0'
          ? amount(drug.unit, r, location, 'drug_information.unit', DRUG_UNIT)
          : jsonAmount(drug.unit, r, location, 'drug_information.unit', DRUG_UNIT);
      // A number where 2.2 asks a string (3.0's type): read all the same, and said.
      if (typeof drug.unit === 'number' && ctx.version !== '3.0.0')
        r.add('json.wrong-type-read', location, `drug_information.unit ${drug.unit}`);
      // A list or an object is no CMS type: left out and said as one (enum.drug-type), the charge
      // kept, as for any type that cannot be read.
      const typeText =
        typeof drug.type === 'object' && drug.type !== null
          ? JSON.stringify(drug.type)
          : jsonText(drug.type, r, location, 'drug_information.type');
      drugTypeValue = drugType(this.report, typeText, location);
      unitGiven = written(drug.unit);
      typeGiven = typeText !== null;
      // CMS's schema asks both of an object that is there (one alone is said below).
      if (Object.keys(drug).length === 0)
        r.add('json.empty-value', location, 'drug_information {}');
    } else if (drug === null) r.add('json.empty-value', location, 'drug_information null');
    if (drug !== undefined && drug !== null && !isObject(drug)) {
      // Written, though unreadable: its own error, not said missing as well.
      const shape = Array.isArray(drug) ? 'a list' : `a ${typeof drug}`;
      r.add(
        'json.wrong-type-left-out',
        location,
        `drug_information should be an object, not ${shape}`,
      );
    } else checkDrugInformation(ctx, location, unitGiven, typeGiven, codes);
    const itemErrors = r.rejectingErrors - before;
    const charges = this.listOf(item.standard_charges, location, 'standard_charges');
    if (charges.length === 0) {
      r.add('required.charge', location, 'no standard_charges');
      r.rejectedRecords++;
      return;
    }
    for (let j = 0; j < charges.length; j++) {
      const sc: unknown = charges[j];
      const recordLocation = `${location}.standard_charges[${j}]`;
      if (!isObject(sc)) {
        r.add('json.wrong-type', recordLocation, 'a standard charge should be an object');
        r.rejectedRecords++;
        continue;
      }
      this.onCharge(sc, recordLocation, ctx, itemErrors, {
        description: description ?? '',
        codes,
        drugUnit,
        drugType: drugTypeValue,
      });
    }
  }

  private onCharge(
    sc: JsonObject,
    location: string,
    ctx: RuleContext,
    itemErrors: number,
    item: Pick<ChargeRecord, 'description' | 'codes' | 'drugUnit' | 'drugType'>,
  ): void {
    const r = this.report;
    const rateInCharge = this.unknownFields.check(sc, 'charge', location);
    const before = r.rejectingErrors;
    const settingValue = this.readSetting(sc.setting, location, true);
    const modifiers: string[] = [];
    for (const m of this.listOf(sc.modifier_code, location, 'modifier_code', true)) {
      const t = jsonText(m, r, location, 'modifier_code');
      if (t !== null) modifiers.push(t);
    }
    modifierCodes(modifiers, r, location);
    const gross = jsonAmount(sc.gross_charge, r, location, 'gross_charge', CHARGE);
    const cash = jsonAmount(sc.discounted_cash, r, location, 'discounted_cash', CHARGE);
    const min = jsonAmount(sc.minimum, r, location, 'minimum', CHARGE);
    const max = jsonAmount(sc.maximum, r, location, 'maximum', CHARGE);
    const ownErrors = r.rejectingErrors - before;

    const payers: PayerCharge[] = [];
    let anyDollar = false;
    const list = this.payersOf(sc.payers_information, location);
    for (let k = 0; k < list.length; k++) {
      const p: unknown = list[k];
      const payerLocation = `${location}.payers_information[${k}]`;
      if (!isObject(p)) {
        r.add('json.wrong-type', payerLocation, 'a payer entry should be an object');
        r.rejectedPayers++;
        continue;
      }
      this.unknownFields.check(p, 'payer', payerLocation);
      const payer = this.payer(p, payerLocation, ctx);
      if (payer === null) {
        r.rejectedPayers++;
        continue;
      }
      if (payer.dollar !== null) anyDollar = true;
      payers.push(payer);
    }
    if (rateInCharge) {
      // Its fields are CMS's payer fields (checked with the charge's): read as the entry they make.
      r.add('json.rate-in-charge', location, rateInCharge.written.join(', '));
      const payer = this.payer(rateInCharge.entry, location, ctx);
      if (payer === null) r.rejectedPayers++;
      else {
        if (payer.dollar !== null) anyDollar = true;
        payers.push(payer);
      }
    }
    const record: ChargeRecord = {
      location,
      description: item.description,
      codes: item.codes,
      setting: settingValue,
      modifiers,
      drugUnit: item.drugUnit,
      drugType: item.drugType,
      gross: numberOrNull(gross),
      discountedCash: numberOrNull(cash),
      min: numberOrNull(min),
      max: numberOrNull(max),
      genericNotes: jsonText(
        sc.additional_generic_notes,
        r,
        location,
        'additional_generic_notes',
        this.emptyTextAllowed(),
      ),
      payers,
    };
    const unreadable = minMaxUnreadable(min, written(sc.minimum), max, written(sc.maximum));
    const errors = itemErrors + ownErrors + checkRecord(record, ctx, anyDollar, unreadable);
    keepOrReject(record, errors, r, this.out);
  }

  /**
   * A standard charge's `payers_information` as a list (listOf). An object keyed by payer name,
   * `{ "Aetna": { "plan_name": "PPO", … } }`, none of whose keys is a payer entry's field and
   * each of whose values is an entry or a list of them, is read as its entries, an entry that
   * names no payer under the payer its key names (`json.payers-by-name`); before, it was read as
   * one entry whose fields were all unknown, and rejected as a rate without payer or amount.
   */
  private payersOf(value: unknown, location: string): unknown[] {
    if (!isObject(value) || !this.keyedByPayer(value)) {
      return this.listOf(value, location, 'payers_information');
    }
    this.report.add('json.payers-by-name', location, shortly(value));
    const entries: JsonObject[] = [];
    let named = 0;
    for (const [name, under] of Object.entries(value)) {
      for (const entry of Array.isArray(under) ? (under as JsonObject[]) : [under as JsonObject]) {
        // Its own name, however spelt, is its payer's; the key names one that has none.
        const own = Object.keys(entry).find(
          (key) => this.unknownFields.spelled('payer', key) === 'payer_name',
        );
        if (own === undefined) named++;
        entries.push(
          own === undefined || (own === 'payer_name' && !written(entry.payer_name))
            ? { ...entry, payer_name: name }
            : entry,
        );
      }
    }
    // The keys the text had, which the entries' checks count: the object's, not the names added.
    this.unknownFields.keys += Object.keys(value).length - named;
    return entries;
  }

  /** Whether an object is payer entries keyed by payer name (see payersOf). */
  private keyedByPayer(value: JsonObject): boolean {
    let any = false;
    for (const key in value) {
      if (this.unknownFields.spelled('payer', key) !== null) return false;
      const under = value[key];
      if (!(isObject(under) || (Array.isArray(under) && under.every(isObject)))) return false;
      any = true;
    }
    return any;
  }

  /**
   * `modifier_information` (v2.2 and later): what each modifier (or `|`-joined combination) does
   * to a payer's rate, in words. Read as the CSV layouts carry the same facts: a charge with the
   * modifiers and no code, one rate per payer and plan whose notes are that payer's description.
   * Read once the file has ended, wherever the key stood (it often follows the items).
   */
  private onModifiers(value: unknown): void {
    const ctx = this.ctx as RuleContext;
    const r = this.report;
    // Before 3.0.0 the schemas let the list be empty.
    if (Array.isArray(value) && value.length === 0 && ctx.version !== '3.0.0') return;
    const modifiers = this.listOf(value, MODIFIERS_KEY, MODIFIERS_KEY);
    for (let i = 0; i < modifiers.length; i++) {
      const m: unknown = modifiers[i];
      const location = `${MODIFIERS_KEY}[${i}]`;
      if (!isObject(m)) {
        r.add('json.wrong-type', location, 'a modifier should be an object');
        r.rejectedModifiers++;
        continue;
      }
      this.unknownFields.check(m, 'modifier', location);
      const before = r.rejectingErrors;
      const settingValue = this.readSetting(m.setting, location, false);
      const code = jsonText(m.code, r, location, 'code');
      const description = jsonText(m.description, r, location, 'description') ?? '';
      const ownErrors = r.rejectingErrors - before;
      const payers: PayerCharge[] = [];
      const list = this.listOf(
        m.modifier_payer_information,
        location,
        'modifier_payer_information',
      );
      for (let k = 0; k < list.length; k++) {
        const payer = this.modifierPayer(list[k], `${location}.modifier_payer_information[${k}]`);
        if (payer === null) r.rejectedModifierEntries++;
        else payers.push(payer);
      }
      const record: ChargeRecord = {
        location,
        description,
        codes: [],
        setting: settingValue,
        modifiers:
          code === null ? [] : modifierCodes(splitPipes(code, r, location, 'code'), r, location),
        drugUnit: null,
        drugType: null,
        gross: null,
        discountedCash: null,
        min: null,
        max: null,
        genericNotes: null,
        payers,
      };
      const errors = ownErrors + checkRecord(record, ctx, false);
      // Without its code (reported as missing) it is still a modifier's record, not a charge.
      if (record.modifiers.length === 0) {
        r.rejectedModifiers++;
        r.rejectedModifierEntries += payers.length;
      } else keepOrReject(record, errors, r, this.out);
    }
  }

  /** A payer or plan name as the file's other spellings of it have it; '' when there is none. */
  private nameOf(value: unknown, location: string, field: string): string {
    return typeof value === 'string' ? (this.names.name(value, location, field) ?? '') : '';
  }

  /** One entry of `modifier_payer_information`: payer, plan and description, all required. */
  private modifierPayer(p: unknown, location: string): PayerCharge | null {
    const r = this.report;
    if (!isObject(p)) {
      r.add('json.wrong-type', location, 'a payer entry should be an object');
      return null;
    }
    this.unknownFields.check(p, 'modifierPayer', location);
    const before = r.rejectingErrors;
    const payerName = this.nameOf(p.payer_name, location, 'payer_name');
    const planName = planNameOrNone(this.nameOf(p.plan_name, location, 'plan_name'), r, location);
    const description = jsonText(p.description, r, location, 'description');
    if (payerName.length === 0) r.add('required.payer_name', location);
    if (description === null) r.add('required.modifier-description', location);
    if (r.rejectingErrors > before) return null;
    return payerChargeWith(payerName, planName, { notes: description });
  }

  /** A payer entry whose fields were checked (UnknownFields.check), read; null when rejected. */
  private payer(p: JsonObject, location: string, ctx: RuleContext): PayerCharge | null {
    const r = this.report;
    const before = r.rejectingErrors;
    const payerName = this.nameOf(p.payer_name, location, 'payer_name');
    const planName = this.nameOf(p.plan_name, location, 'plan_name');
    const methodologyText = jsonText(p.methodology, r, location, 'methodology');
    let methodologyValue =
      methodologyText === null ? null : methodology(methodologyText, r, location);
    if (methodologyValue === undefined) {
      r.add('enum.methodology', location, JSON.stringify(methodologyText));
      methodologyValue = null;
    }
    const dollar = jsonAmount(p.standard_charge_dollar, r, location, 'standard_charge_dollar');
    const percentage = jsonAmount(
      p.standard_charge_percentage,
      r,
      location,
      'standard_charge_percentage',
      PERCENT,
    );
    const estimated = allowed(p.estimated_amount, r, location, 'estimated_amount');
    const median = allowed(p.median_amount, r, location, 'median_amount');
    const p10 = allowed(p['10th_percentile'], r, location, '10th_percentile');
    const p90 = allowed(p['90th_percentile'], r, location, '90th_percentile');
    const payer: PayerCharge = {
      payerName,
      planName,
      methodology: methodologyValue,
      dollar: numberOrNull(dollar),
      percentage: numberOrNull(percentage),
      algorithm: jsonText(
        p.standard_charge_algorithm,
        r,
        location,
        'standard_charge_algorithm',
        this.emptyTextAllowed(),
      ),
      estimatedAmount: estimated,
      median,
      p10,
      p90,
      count: jsonText(p.count, r, location, 'count'),
      notes: jsonText(
        p.additional_payer_notes,
        r,
        location,
        'additional_payer_notes',
        this.emptyTextAllowed(),
      ),
    };
    const valueErrors = r.rejectingErrors - before;
    // An unreadable amount counts as present for the "one of dollar/percentage/algorithm" rule:
    // its own error already rejects the rate.
    if (Number.isNaN(dollar)) payer.dollar = -1;
    if (Number.isNaN(percentage)) payer.percentage = -1;
    const ruleErrors = checkPayer(payer, ctx, location, methodologyText !== null, null);
    if (valueErrors + ruleErrors > 0) return null;
    return payer;
  }

  /**
   * A setting, normalised; a missing one is reported when `required`, an unknown one always (kept
   * as none when not `required`). A list of settings is read as its settings joined, as a CSV
   * writes them: `["inpatient", "outpatient"]` is both, with `json.wrong-type-read`.
   */
  private readSetting(
    value: unknown,
    location: string,
    required: boolean,
  ): ChargeRecord['setting'] {
    const r = this.report;
    // Both settings as a list, ["inpatient", "outpatient"]: read as they are written in a CSV.
    const listed =
      Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string');
    if (listed) r.add('json.wrong-type-read', location, `setting ${JSON.stringify(value)}`);
    const settingText = jsonText(listed ? value.join('|') : value, r, location, 'setting');
    if (settingText === null) {
      if (required) r.add('required.setting', location);
      return null;
    }
    const read = setting(settingText, r, location);
    // An optional one (a modifier's) that is no CMS value is read as none: for every setting.
    if (read === undefined)
      r.add(
        required ? 'enum.setting' : 'enum.modifier-setting',
        location,
        JSON.stringify(settingText),
      );
    return read ?? null;
  }

  private codes(value: unknown, location: string): CodeRef[] {
    const r = this.report;
    const codes: CodeRef[] = [];
    const list = this.listOf(value, location, 'code_information');
    for (let i = 0; i < list.length; i++) {
      const c: unknown = list[i];
      if (!isObject(c)) {
        r.add('required.code_value', location, JSON.stringify(c));
        continue;
      }
      this.unknownFields.check(c, 'code', `${location}.code_information[${i}]`);
      const code = jsonText(c.code, r, location, 'code');
      const typeText = jsonText(c.type, r, location, 'code type');
      if (code === null) {
        r.add('required.code_value', location, typeText === null ? '' : `type ${typeText}`);
        continue;
      }
      if (typeText === null) {
        r.add('required.code_type', location, code);
        continue;
      }
      const kind = codeType(this.codeTypes, r, typeText, location);
      // A placeholder ("N/A", zeros) is no code: said by codeValue, and left out here, before
      // the charge's setting and rates are judged by whether it has one.
      const value = codeValue(r, kind, code, location);
      if (value.length > 0) codes.push({ code: value, type: kind });
    }
    return codes;
  }
}

/** A rate's estimated or allowed amount (see allowedAmount); none when unreadable (said). */
function allowed(
  value: unknown,
  report: ValidationReport,
  location: string,
  field: string,
): number | null {
  return allowedAmount(
    jsonAmount(value, report, location, field, ALLOWED),
    report,
    location,
    field,
  );
}

/** Whether the byte after a slash starts a comment: a second slash, or a star. */
function isCommentStart(c: number): boolean {
  return c === SLASH || c === 0x2a;
}
