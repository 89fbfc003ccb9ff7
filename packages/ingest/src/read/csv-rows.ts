/**
 * A streaming RFC 4180 row splitter on decoded text: quoted fields, doubled quotes, newlines
 * inside quotes, CRLF or LF. It works with indexOf over the text rather than character by
 * character, which is what makes it several times faster than general-purpose CSV libraries on
 * MRFs (where every field is often quoted).
 */
/**
 * A row's fields, the physical line it starts on, and where in the text (all pushed) it ends;
 * for a row whose text holds a CR not followed by LF (`loneCrText`), that text, so a reader that
 * finds the row too wide can read those CRs as line ends.
 */
export type RowHandler = (fields: string[], line: number, end: number, loneCrText?: string) => void;

/**
 * How far a quoted value may run without its closing quote before that quote is taken for a
 * stray one and read as text. A stray quote in an MRF (`"10" syringe`, a leading `"`) would
 * otherwise swallow the rest of the file into one value, held in memory.
 */
export const MAX_QUOTED_CHARS = 1 << 20;
/** The longest row the splitter holds while it waits for the row's line end. */
export const MAX_ROW_CHARS = 16 << 20;

const QUOTE = 34;
const COMMA = 44;
const SPACE = 32;
const TAB = 9;
const EQUALS = 61;
const CR = 13;
const LF = 10;

export class CsvRowSplitter {
  /** Physical line (1-based) where the next row starts. */
  private line = 1;
  private rest = '';
  /** Where `rest` starts in the text pushed so far. */
  private restAt = 0;
  /** The row whose stray quote was last reported (a row waiting for text is split again). */
  private strayLine = 0;
  /** The row being dropped up to its line end for running on past MAX_ROW_CHARS, or 0. */
  private skipping = 0;
  /** How many values the file's rows have, once the reader knows (`expectRowWidth`); 0 before. */
  private rowWidth = 0;
  /** Whether `""` before a delimiter is a quote and the closing one (`readInchMarks`). */
  private inchMarks = false;

  /**
   * `onStrayQuote` hears of each row with a quote that never closed, read as text; `onLongRow`,
   * of each row that ran on past MAX_ROW_CHARS without a line end and was dropped (up to its
   * line end, so memory stays flat), the rows after it read as rows; `onInnerQuote`, of each row
   * with a quote inside a quoted value that was not doubled (`"12" tube"`, or an inch mark
   * before the closing quote, `"Catheter 8"",12`), read as a quote; `onExcelText`, of each value
   * written as Excel's text formula, read as the text inside (see `readExcelText`);
   * `onSpacedQuote`, of each row with a value quoted after blanks that follow its comma
   * (`Office visit, "99213"`), read as the quoted value.
   */
  constructor(
    private readonly onRow: RowHandler,
    private readonly onStrayQuote: (line: number) => void = () => {},
    private readonly onLongRow: (line: number) => void = () => {},
    private readonly onInnerQuote: (line: number, value: string) => void = () => {},
    private readonly onExcelText: (line: number, value: string) => void = () => {},
    private readonly onSpacedQuote: (line: number, value: string) => void = () => {},
  ) {}

  /**
   * Says how many values the file's rows have (its columns): a row that falls short of them, with
   * a value read leniently past a `""` before a delimiter, is read again with that `""` as an
   * inch mark and the closing quote (`readInchMarks`), and read so if it then has as many.
   */
  expectRowWidth(width: number): void {
    this.rowWidth = width;
  }

  /** Text waiting for the end of its row. */
  get pendingLength(): number {
    return this.rest.length;
  }

  push(text: string): void {
    if (this.skipping) {
      const nl = text.indexOf('\n');
      if (nl === -1) {
        this.restAt += text.length;
        return;
      }
      this.onLongRow(this.skipping);
      this.skipping = 0;
      this.line++;
      this.restAt += nl + 1;
      this.parse(text.slice(nl + 1), false);
      return;
    }
    this.parse(this.rest.length ? this.rest + text : text, false);
  }

  end(): void {
    if (this.skipping) this.onLongRow(this.skipping);
    else if (this.rest.length) this.parse(this.rest, true);
    this.skipping = 0;
    this.rest = '';
  }

  private parse(s: string, final: boolean): void {
    const n = s.length;
    let pos = 0;
    let nl = -1;
    // The next CR not followed by LF at or after a row's start: -1 for none, -2 not looked for.
    let loneCr = -2;
    // Whether a row of this text may hold an Excel text formula: a row is split only once it is
    // whole in the text, and both ways of writing one (`="0611"`, `"=""0611"""`) hold `="`.
    // A row read again at its inch marks is read with its values as they come (readInchMarks).
    const excel = !this.inchMarks && s.indexOf('="') !== -1;
    rows: while (pos < n) {
      const rowStart = pos;
      const rowLine = this.line;
      let extraLines = 0;
      let fields: string[] = [];
      let p = pos;
      let literal = -1; // a quote found stray in this row, read as text
      // Said once the row is whole: a row waiting for text is split again.
      let inner: string | null = null; // the row's first value with a quote not doubled
      let spaced: string | null = null; // its first value quoted after blanks
      let inchRow = false; // whether a value was read leniently past a `""` before a delimiter
      for (;;) {
        // A quoted field's opening quote, or -1. Blanks before it are dropped (`a, "b"`), checked
        // only where a field starts with one.
        let open = -1;
        if (p < n) {
          const c = s.charCodeAt(p);
          if (c === QUOTE) open = p === literal ? -1 : p;
          else if (c === SPACE || c === TAB) open = quoteAfterBlanks(s, p, literal);
        }
        if (open !== -1) {
          const start = p;
          p = open;
          // Quoted field: jump from quote to quote.
          let q = p + 1;
          let escaped = false;
          let close = -1;
          // The first `""` followed by a delimiter: an inch mark and the closing quote, maybe.
          let inch = -1;
          for (;;) {
            const k = s.indexOf('"', q);
            if (k === -1) break;
            if (k + 1 < n && s.charCodeAt(k + 1) === QUOTE) {
              if (inch === -1 && endsValue(s, k + 2, final)) {
                inch = k;
                if (this.inchMarks) {
                  close = k + 1;
                  break;
                }
              }
              escaped = true;
              q = k + 2;
              continue;
            }
            if (k + 1 >= n && !final) break; // a doubled quote may straddle the chunk boundary
            close = k;
            break;
          }
          if (close === -1 && !final && n - p <= MAX_QUOTED_CHARS) break rows; // wait for more
          let value = close === -1 ? '' : s.slice(p + 1, close);
          // A quote closed lines away and followed by text, not a delimiter, belongs to a later
          // value: the opening one was stray, like one that never closes.
          const next = close + 1 < n ? s.charCodeAt(close + 1) : COMMA;
          if (
            close === -1 ||
            (next !== COMMA && next !== LF && next !== CR && value.includes('\n'))
          ) {
            if (inch === -1 || s.lastIndexOf('\n', inch) > p) {
              if (this.strayLine !== rowLine) this.onStrayQuote(rowLine);
              this.strayLine = rowLine;
              literal = p;
              p = start;
              continue;
            }
            // But a `""` before a delimiter on its first line was an inch mark that closes it
            // (`"Catheter 8"",12`): read so, not with its quotes as text.
            close = inch + 1;
            value = s.slice(p + 1, close);
          }
          if (escaped) value = value.replaceAll('""', '"');
          p = close + 1;
          // Lenient: text between the closing quote and the delimiter is kept, as spreadsheets
          // read it (`"Big" toe` is Big toe). Text that ends with a quote of its own means the
          // first was one inside the value, not doubled (`"12" tube"`): it is kept, and the last
          // closes the value.
          const after = p;
          while (p < n) {
            const c = s.charCodeAt(p);
            if (c === COMMA || c === LF || c === CR) break;
            p++;
          }
          if (p >= n && !final) break rows;
          if (p > after) {
            const text = s.slice(after, p);
            // A value quoted after blanks is one only when nothing but blanks follows it either:
            // `a, "8" tube` is read as written.
            if (start !== open && !isBlanks(text)) {
              literal = open;
              p = start;
              continue;
            }
            if (!text.endsWith('"') || text.length === 1) value += text;
            else {
              value += `"${text.slice(0, -1)}`;
              inner ??= value;
            }
          }
          if (close === inch + 1) inner ??= value;
          // A value read past such a `""` to a quote with text after it was read leniently: the
          // `""` may have closed it (readInchMarks). One that closes as CSV closes is as meant
          // (`"Tube 8"", 10 Fr"` is Tube 8", 10 Fr).
          else if (inch !== -1 && p > after) inchRow = true;
          if (start !== open) spaced ??= value;
          for (let k = value.indexOf('\n'); k !== -1; k = value.indexOf('\n', k + 1)) extraLines++;
          fields.push(value);
          if (p >= n) {
            pos = n;
            break;
          }
          const c = s.charCodeAt(p);
          if (c === COMMA) {
            p++;
            continue;
          }
          if (c === CR) {
            if (p + 1 >= n && !final) break rows;
            p += s.charCodeAt(p + 1) === LF ? 2 : 1;
          } else p++;
          pos = p;
          break;
        }
        // Unquoted field: up to the next comma on this line.
        if (nl < p) {
          nl = s.indexOf('\n', p);
          if (nl === -1) {
            if (!final && n - pos <= MAX_ROW_CHARS) break rows;
            if (!final) {
              // Dropped from here to its line end (push), unheld.
              this.skipping = rowLine;
              this.line += extraLines;
              this.rest = '';
              this.restAt += n;
              return;
            }
            nl = n;
          }
        }
        const comma = s.indexOf(',', p);
        if (comma !== -1 && comma < nl) {
          fields.push(s.slice(p, comma));
          p = comma + 1;
          continue;
        }
        let e = nl;
        if (e > p && s.charCodeAt(e - 1) === CR) e--;
        fields.push(s.slice(p, e));
        pos = nl + 1;
        break;
      }
      this.line += 1 + extraLines;
      if (fields.length > 1 || (fields[0] ?? '').length > 0) {
        if (inchRow && fields.length < this.rowWidth) {
          const reread = this.readInchMarks(s.slice(rowStart, pos));
          if (reread !== null) {
            fields = reread.fields;
            inner = reread.inner;
          }
        }
        if (inner !== null) this.onInnerQuote(rowLine, inner);
        if (spaced !== null) this.onSpacedQuote(rowLine, spaced);
        if (excel) this.readExcelText(fields, rowLine);
        if (loneCr !== -1 && loneCr < rowStart) loneCr = nextLoneCr(s, rowStart);
        // A CR ending the last row of the file is its line end.
        const lone = loneCr !== -1 && loneCr < pos && !(final && loneCr === n - 1);
        this.onRow(fields, rowLine, this.restAt + pos, lone ? s.slice(rowStart, pos) : undefined);
      }
    }
    this.rest = pos < n ? s.slice(pos) : '';
    this.restAt += pos;
  }

  /**
   * A row short of the file's values read again with each `""` before a delimiter as a quote
   * inside the value and its closing quote (`"Catheter 8"",12` is `Catheter 8"` and `12`), and
   * its first value so read: a strict RFC 4180 reader takes such a `""` for a doubled quote and
   * runs the value on into the next ones. Null unless that gives one row of exactly as many
   * values as the file's rows have, with no stray quote: otherwise which quote was meant cannot
   * be told, and the row is read as written.
   */
  private readInchMarks(text: string): { fields: string[]; inner: string } | null {
    const rows: string[][] = [];
    let stray = false;
    let inner = '';
    const splitter = new CsvRowSplitter(
      (fields) => rows.push(fields),
      () => (stray = true),
      undefined,
      (_line, value) => (inner ||= value),
    );
    splitter.inchMarks = true;
    splitter.push(text);
    splitter.end();
    const [fields] = rows;
    if (stray || rows.length !== 1 || fields?.length !== this.rowWidth) return null;
    return { fields, inner };
  }

  /**
   * Reads each value written as Excel's text formula, `="0611"`, as the text inside (`0611`).
   * Exports write codes this way so that Excel keeps their leading zeros; kept as written,
   * `="0611"` would be a code no search finds. The formula may be the value as written or, quoted
   * by a CSV writer, `"=""0611"""`: either way it is `="0611"` here.
   */
  private readExcelText(fields: string[], line: number): void {
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i] as string;
      if (f.length < 3 || f.charCodeAt(0) !== EQUALS || f.charCodeAt(1) !== QUOTE) continue;
      if (f.charCodeAt(f.length - 1) !== QUOTE) continue;
      fields[i] = f.slice(2, -1).replaceAll('""', '"');
      this.onExcelText(line, f);
    }
  }
}

/** Where in `s`, from `from` on, the first CR not followed by LF is; -1 for none. */
function nextLoneCr(s: string, from: number): number {
  for (let k = s.indexOf('\r', from); k !== -1; k = s.indexOf('\r', k + 1))
    if (s.charCodeAt(k + 1) !== LF) return k;
  return -1;
}

/**
 * Where the quote after the blanks (spaces, tabs) at `from` is, when one opens a field there and
 * is not `literal` (found stray); -1 otherwise.
 */
function quoteAfterBlanks(s: string, from: number, literal: number): number {
  let k = from + 1;
  while (k < s.length && (s.charCodeAt(k) === SPACE || s.charCodeAt(k) === TAB)) k++;
  return k < s.length && k !== literal && s.charCodeAt(k) === QUOTE ? k : -1;
}

/** Whether the text is blanks (spaces, tabs) alone. */
function isBlanks(text: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/** Whether a value ends at `at`: a delimiter is there, or the text ends there and is `final`. */
function endsValue(s: string, at: number, final: boolean): boolean {
  if (at >= s.length) return final;
  const c = s.charCodeAt(at);
  return c === COMMA || c === LF || c === CR;
}
