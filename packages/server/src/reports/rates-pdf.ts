import { payerDisplayName, type OopRateRow, type SummaryRow } from '@ratelens/core';
import PDFDocument from 'pdfkit';
import { reportDate, usd } from './report-format.ts';

export interface RatesPdfInput {
  /** Printed at the top of every page (the spec's pdfHeader). */
  header: string;
  /** Printed at the bottom of every page with the page number (the spec's pdfFooter). */
  footer: string;
  rows: OopRateRow[];
  /** One line per hospital: low, average and high rate, and the cash price. */
  summary: SummaryRow[];
  /** Only the employer report keeps the hospitals' notes (§6: removed for other report types). */
  includeNotes: boolean;
  assumptions: string[];
  generatedAt: Date;
}

const MARGIN = 36;
const CELL_PADDING = 4;
const BODY_SIZE = 9;
const FOOTER_SIZE = 8;
const HEADER_SIZE = 12;
const RULE = '#c9ced6';
const SHADE = '#f1f3f5';
const INK = '#1a1b1e';
const MUTED = '#555555';

type Align = 'left' | 'right';

interface Column {
  title: string;
  /** Points for fixed columns; shares of what is left for the others. */
  width: number;
  fixed?: boolean;
  align?: Align;
}

/** The characters of the core PDF fonts' WinAnsi encoding beyond Latin-1. */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/**
 * The built-in Helvetica can only show WinAnsi characters: an accented letter outside it loses
 * its accent, anything else becomes '?', rather than printing as garbage.
 */
export function winAnsi(text: string): string {
  let result = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    if (
      char === '\n' ||
      (code >= 0x20 && code <= 0x7e) ||
      (code >= 0xa0 && code <= 0xff) ||
      WIN_ANSI_EXTRA.includes(char)
    ) {
      result += char;
    } else {
      const base = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      result += /^[\x20-\x7e]+$/.test(base) ? base : '?';
    }
  }
  return result;
}

function byRateAscending(a: OopRateRow, b: OopRateRow): number {
  return (
    a.rates - b.rates ||
    a.FacilityName.localeCompare(b.FacilityName) ||
    a.planname.localeCompare(b.planname)
  );
}

/** Draws tables that continue on a new page (with their header row again) when they run out. */
class Layout {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly pageOptions: PDFKit.PDFDocumentOptions,
  ) {}

  get width(): number {
    return this.doc.page.width - MARGIN * 2;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  newPage(): void {
    this.doc.addPage(this.pageOptions);
  }

  /** Starts a new page when fewer than `height` points are left on this one. */
  ensure(height: number): void {
    if (this.doc.y + height > this.bottom) this.newPage();
  }

  heading(text: string): void {
    this.ensure(60);
    this.doc.moveDown(0.6);
    this.doc.font('Helvetica-Bold').fontSize(11).fillColor(INK);
    this.doc.text(winAnsi(text), MARGIN, this.doc.y, { width: this.width });
    this.doc.moveDown(0.3);
  }

  paragraph(text: string, options: { bullet?: boolean } = {}): void {
    this.doc.font('Helvetica').fontSize(BODY_SIZE).fillColor(INK);
    const indent = options.bullet ? 12 : 0;
    const content = winAnsi(text);
    const height = this.doc.heightOfString(content, { width: this.width - indent });
    this.ensure(height + 2);
    const y = this.doc.y;
    if (options.bullet) this.doc.text('•', MARGIN, y, { lineBreak: false });
    this.doc.text(content, MARGIN + indent, y, { width: this.width - indent });
    this.doc.moveDown(0.2);
  }

  table(columns: Column[], rows: string[][]): void {
    const fixed = columns.reduce((sum, c) => sum + (c.fixed ? c.width : 0), 0);
    const shares = columns.reduce((sum, c) => sum + (c.fixed ? 0 : c.width), 0);
    const widths = columns.map((c) =>
      c.fixed ? c.width : ((this.width - fixed) * c.width) / shares,
    );
    const measure = (cells: string[], bold: boolean, shade: string | null) => {
      this.doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(BODY_SIZE);
      const texts = cells.map(winAnsi);
      const height =
        Math.max(
          ...texts.map((text, i) =>
            this.doc.heightOfString(text, { width: (widths[i] ?? 0) - CELL_PADDING * 2 }),
          ),
        ) +
        CELL_PADDING * 2;
      return { texts, height, bold, shade };
    };
    const paint = (row: ReturnType<typeof measure>) => {
      const y = this.doc.y;
      if (row.shade) this.doc.rect(MARGIN, y, this.width, row.height).fill(row.shade);
      this.doc.font(row.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(BODY_SIZE).fillColor(INK);
      let x = MARGIN;
      row.texts.forEach((text, i) => {
        const width = widths[i] ?? 0;
        this.doc.text(text, x + CELL_PADDING, y + CELL_PADDING, {
          width: width - CELL_PADDING * 2,
          align: columns[i]?.align ?? 'left',
        });
        x += width;
      });
      this.doc
        .moveTo(MARGIN, y + row.height)
        .lineTo(MARGIN + this.width, y + row.height)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      this.doc.x = MARGIN;
      this.doc.y = y + row.height;
    };
    const header = measure(
      columns.map((c) => c.title),
      true,
      '#dee2e6',
    );
    this.ensure(header.height * 2);
    paint(header);
    rows.forEach((cells, index) => {
      const row = measure(cells, false, index % 2 === 1 ? SHADE : null);
      if (this.doc.y + row.height > this.bottom) {
        this.newPage();
        paint(header);
      }
      paint(row);
    });
  }
}

/**
 * The texted report (§7 sendPdftoUser): the rates sorted by rate ascending, a summary per
 * hospital and the assumptions of the estimate, with the header and the footer (and
 * 'Page n of m') on every page. pdfkit with its built-in Helvetica: no font files to ship.
 */
export async function renderRatesPdf(input: RatesPdfInput): Promise<Buffer> {
  const header = winAnsi(input.header);
  const footer = winAnsi(input.footer);
  const doc = new PDFDocument({
    autoFirstPage: false,
    bufferPages: true,
    compress: true,
    info: {
      Title: header || 'RateLens rate report',
      Author: 'RateLens',
      Creator: 'RateLens',
      CreationDate: input.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  // Page size first, so the header and footer heights can be measured for the margins.
  const size: [number, number] = [792, 612]; // US Letter, landscape
  const textWidth = size[0] - MARGIN * 2;
  doc.font('Helvetica-Bold').fontSize(HEADER_SIZE);
  const headerHeight = header ? doc.heightOfString(header, { width: textWidth * 0.7 }) : 0;
  doc.font('Helvetica').fontSize(FOOTER_SIZE);
  const footerHeight = footer ? doc.heightOfString(footer, { width: textWidth - 80 }) : 0;
  const pageOptions: PDFKit.PDFDocumentOptions = {
    size,
    margins: {
      top: MARGIN + Math.max(headerHeight, 14) + 14,
      bottom: MARGIN + Math.max(footerHeight, 10) + 10,
      left: MARGIN,
      right: MARGIN,
    },
  };
  const layout = new Layout(doc, pageOptions);
  layout.newPage();

  const rows = [...input.rows].sort(byRateAscending);
  doc.font('Helvetica-Bold').fontSize(11).fillColor(INK);
  doc.text(`Rates, lowest first (${rows.length.toLocaleString('en-US')})`, MARGIN, doc.y);
  doc.moveDown(0.3);
  if (rows.length === 0) {
    layout.paragraph('No rates were found for this search.');
  } else {
    const columns: Column[] = [
      { title: 'Code', width: 52, fixed: true },
      { title: 'Facility', width: 3 },
      { title: 'Plan', width: 3 },
      { title: 'Rate', width: 72, fixed: true, align: 'right' },
      { title: 'Your OOP', width: 72, fixed: true, align: 'right' },
      ...(input.includeNotes ? [{ title: 'Notes', width: 3 }] : []),
    ];
    layout.table(
      columns,
      rows.map((row) => [
        // With its modifiers as billing writes them: 47562-80 is the assistant surgeon's line.
        [row.medicalcode, ...row.modifiers].join('-'),
        row.FacilityName,
        row.payername ? `${payerDisplayName(row.payername)} — ${row.planname}` : row.planname,
        usd(row.rates),
        // No estimate for Medicare Advantage, Medicaid and other public plans (the assumptions say why).
        row.MemberOOP === null ? 'Not estimated' : usd(row.MemberOOP),
        ...(input.includeNotes ? [row.notes ?? ''] : []),
      ]),
    );
  }

  layout.heading('Summary by hospital');
  if (input.summary.length === 0) {
    layout.paragraph('No hospital summary for this search.');
  } else {
    layout.table(
      [
        { title: 'Hospital', width: 1 },
        { title: 'Low', width: 90, fixed: true, align: 'right' },
        { title: 'Average', width: 90, fixed: true, align: 'right' },
        { title: 'High', width: 90, fixed: true, align: 'right' },
        { title: 'Cash', width: 90, fixed: true, align: 'right' },
      ],
      input.summary.map((s) => [
        s.FacilityName,
        usd(s.LowAmt),
        usd(s.AvgAmt),
        usd(s.HighAmt),
        usd(s.CASH_RATE),
      ]),
    );
  }

  if (input.assumptions.length > 0) {
    layout.heading('Assumptions');
    for (const line of input.assumptions) layout.paragraph(line, { bullet: true });
  }

  // Header and footer last: only now is the number of pages known.
  const range = doc.bufferedPageRange();
  const generated = `Generated ${reportDate(input.generatedAt)}`;
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    const { width, height, margins } = doc.page;
    // Writing inside the margins must not start another page.
    const bottomMargin = margins.bottom;
    margins.bottom = 0;
    doc.font('Helvetica-Bold').fontSize(HEADER_SIZE).fillColor(INK);
    if (header) doc.text(header, MARGIN, MARGIN, { width: textWidth * 0.7 });
    doc.font('Helvetica').fontSize(FOOTER_SIZE).fillColor(MUTED);
    doc.text(generated, MARGIN + textWidth * 0.7, MARGIN + 2, {
      width: textWidth * 0.3,
      align: 'right',
    });
    const footerTop = height - MARGIN - Math.max(footerHeight, 10);
    doc
      .moveTo(MARGIN, footerTop - 6)
      .lineTo(width - MARGIN, footerTop - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    if (footer) doc.text(footer, MARGIN, footerTop, { width: textWidth - 80 });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, width - MARGIN - 80, footerTop, {
      width: 80,
      align: 'right',
    });
    margins.bottom = bottomMargin;
  }

  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
