/**
 * One PDF rendering, in a rendering process of the pool (`render.ts`, `pdf.process.ts`): pdfmake
 * lays out and compresses synchronously, which would stall the event loop for tens of milliseconds.
 *
 * What cannot cross processes (functions) is set up here: the fonts, the table layout, the footer.
 */
import pdfmake from 'pdfmake';
import type { Content, CustomTableLayout, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { PdfDocument } from './document.ts';
import { coverage, EMBEDDED_FONTS, FALLBACK_FONTS, fallbackRuns, HELVETICA_FALLBACKS, OUTSIDE_WINANSI, type EmbeddedFont, type TextRun } from './fonts.ts';

// Helvetica, a standard PDF font: nothing to embed (a contract is 4 KB and renders about five
// times faster), and its WinAnsi encoding covers French (é, à, ç, œ, « », ’) and € (not U+202F,
// hence U+00A0 in amounts: see src/format/french.ts). A word with any other character (an
// artist named Dvořák or Łukasz) is set in Roboto, embedded (subset), which covers Latin, Greek
// and Cyrillic; what Roboto lacks (山田, عبد الله) in a Noto fallback (fonts.ts). The rest of the
// document keeps Helvetica and its line heights: a name does not push a bulletin to two pages.
// A document whose fonts must all be embedded (PDF/A) is set in Roboto, with the same fallbacks.
const FONTS = {
  Helvetica: { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' },
  ...EMBEDDED_FONTS,
};
pdfmake.setFonts(FONTS);
// Documents are built by our code from data: no URL, and no file but the fonts.
const FONT_FILES = new Set(Object.values(FONTS).flatMap((font) => Object.values(font)));
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => FONT_FILES.has(path));

export function fontFor(doc: PdfDocument): 'Helvetica' | 'Roboto' {
  return doc.embedFonts ? 'Roboto' : 'Helvetica';
}

const GRID = '#9aa3ad';
const payrollTable: CustomTableLayout = {
  hLineWidth: (i, node) => (i === 0 || i === 1 || i === node.table.body.length ? 0.8 : 0.3),
  vLineWidth: () => 0,
  hLineColor: () => GRID,
  fillColor: (row) => (row === 0 ? '#eef1f4' : null),
  paddingLeft: () => 4,
  paddingRight: () => 4,
  paddingTop: () => 3,
  paddingBottom: () => 3,
};
// The same, tighter: a bulletin's thirty-odd rows of contributions on one page.
const payrollCompact: CustomTableLayout = { ...payrollTable, paddingTop: () => 1.5, paddingBottom: () => 1.5 };
pdfmake.addTableLayouts({ payroll: payrollTable, payrollCompact });

interface MainFont {
  covers: (cp: number) => boolean;
  fallbacks: readonly EmbeddedFont[];
}

/** A text's runs as pdfmake inlines: the text itself when the main font draws all of it. */
function inlines(text: string, main: MainFont): string | TextRun[] {
  const runs = fallbackRuns(text, main.covers, main.fallbacks);
  return runs.length === 1 && runs[0]!.font === undefined ? text : runs;
}

/**
 * The document's texts with their runs the main font cannot draw set in a fallback: every
 * string where pdfmake takes content (a node, a `text`, an inline, a cell, a column, a list item).
 */
function withFallbacks(node: unknown, main: MainFont): unknown {
  if (typeof node === 'string') {
    const text = inlines(node, main);
    return typeof text === 'string' ? text : { text };
  }
  if (Array.isArray(node)) return node.map((item) => withFallbacks(item, main));
  if (node === null || typeof node !== 'object') return node;
  const object = { ...(node as Record<string, unknown>) };
  if (typeof object.text === 'string') object.text = inlines(object.text, main);
  else if (Array.isArray(object.text)) object.text = object.text.map((item) => withFallbacks(item, main));
  for (const key of ['stack', 'columns', 'ul', 'ol'] as const) {
    if (Array.isArray(object[key])) object[key] = withFallbacks(object[key], main);
  }
  const table = object.table as { body?: unknown[][] } | undefined;
  if (table && Array.isArray(table.body)) object.table = { ...table, body: table.body.map((row) => withFallbacks(row, main)) };
  return object;
}

export default async function render(doc: PdfDocument): Promise<Uint8Array> {
  const { pageFooter, embedFonts: _embedFonts, ...definition } = doc;
  const font = fontFor(doc);
  const main: MainFont =
    font === 'Roboto'
      ? { covers: (cp) => coverage('Roboto').has(cp), fallbacks: FALLBACK_FONTS }
      : { covers: (cp) => !OUTSIDE_WINANSI.test(String.fromCodePoint(cp)), fallbacks: HELVETICA_FALLBACKS };
  // Most documents are WinAnsi only: nothing to look for in them.
  const plain = font === 'Helvetica' && !OUTSIDE_WINANSI.test(JSON.stringify(doc));
  const footerText = (plain ? (pageFooter ?? '') : withFallbacks(pageFooter ?? '', main)) as Content;
  const full: TDocumentDefinitions = {
    ...definition,
    content: (plain ? definition.content : withFallbacks(definition.content, main)) as Content,
    defaultStyle: { ...definition.defaultStyle, font },
    footer: (page, pages) => ({
      margin: [50, 20, 50, 0],
      fontSize: 8,
      color: '#555',
      columns: [footerText, { text: `Page ${page} / ${pages}`, alignment: 'right', width: 'auto' }],
    }),
  };
  return pdfmake.createPdf(full).getBuffer();
}
