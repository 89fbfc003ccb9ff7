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
  /** The row whose quote inside a value was last reported, for the same reason. */
  private innerLine = 0;
  /** The row being dropped up to its line end for running on past MAX_ROW_CHARS, or 0. */
  private skipping = 0;

  /**
   * `onStrayQuote` hears of each row with a quote that never closed, read as text; `onLongRow`,
   * of each row that ran on past MAX_ROW_CHARS without a line end and was dropped (up to its
   * line end, so memory stays flat), the rows after it read as rows; `onInnerQuote`, of each row
   * with a quote inside a quoted value that was not doubled (`"12" tube"`), read as a quote;
   * `onExcelText`, of each value written as Excel's text formula, read as the text inside (see
   * `readExcelText`).
   */
  constructor(
    private readonly onRow: RowHandler,
    private readonly onStrayQuote: (line: number) => void = () => {},
    private readonly onLongRow: (line: number) => void = () => {},
    private readonly onInnerQuote: (line: number, value: string) => void = () => {},
    private readonly onExcelText: (line: number, value: string) => void = () => {},
  ) {}

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
    const excel = s.indexOf('="') !== -1;
    rows: while (pos < n) {
      const rowStart = pos;
      const rowLine = this.line;
      let extraLines = 0;
      const fields: string[] = [];
      let p = pos;
      let literal = -1; // a quote found stray in this row, read as text
      for (;;) {
        if (p < n && s.charCodeAt(p) === QUOTE && p !== literal) {
          // Quoted field: jump from quote to quote.
          let q = p + 1;
          let escaped = false;
          let close = -1;
          for (;;) {
            const k = s.indexOf('"', q);
            if (k === -1) break;
            if (k + 1 < n && s.charCodeAt(k + 1) === QUOTE) {
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
            if (this.strayLine !== rowLine) this.onStrayQuote(rowLine);
            this.strayLine = rowLine;
            literal = p;
            continue;
          }
          if (escaped) value = value.replaceAll('""', '"');
          for (let k = value.indexOf('\n'); k !== -1; k = value.indexOf('\n', k + 1)) extraLines++;
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
            if (!text.endsWith('"') || text.length === 1) value += text;
            else {
              value += `"${text.slice(0, -1)}`;
              if (this.innerLine !== rowLine) this.onInnerQuote(rowLine, value);
              this.innerLine = rowLine;
            }
          }
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
