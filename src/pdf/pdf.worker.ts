/**
 * One PDF rendering, in a rendering process of the pool (`render.ts`, `pdf.process.ts`): pdfmake
 * lays out and compresses synchronously, which would stall the event loop for tens of milliseconds.
 *
 * What cannot cross processes (functions) is set up here: the fonts, the table layout, the footer.
 */
import { createRequire } from 'node:module';
import pdfmake from 'pdfmake';
import type { CustomTableLayout, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { PdfDocument } from './document.ts';

// Two fonts. Helvetica, a standard PDF font: nothing to embed (a contract is 4 KB and renders
// about five times faster), and its WinAnsi encoding covers French (é, à, ç, œ, « », ’) and
// € (not U+202F, hence U+00A0 in amounts: see src/format/french.ts). A document with any other
// character (an artist named Dvořák or Łukasz) is set in Roboto, shipped with pdfmake and
// embedded (subset), which covers Latin, Greek and Cyrillic: a name is never garbled.
const require = createRequire(import.meta.url);
const roboto = (style: string) => require.resolve(`pdfmake/fonts/Roboto/Roboto-${style}.ttf`);
const FONTS = {
  Helvetica: { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' },
  Roboto: { normal: roboto('Regular'), bold: roboto('Medium'), italics: roboto('Italic'), bolditalics: roboto('MediumItalic') },
};
pdfmake.setFonts(FONTS);
// Documents are built by our code from data: no URL, and no file but the fonts.
const FONT_FILES = new Set(Object.values(FONTS).flatMap((font) => Object.values(font)));
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => FONT_FILES.has(path));

/** A character that WinAnsi (Latin-1 and the 0x80-0x9F extras) cannot write. */
const OUTSIDE_WINANSI = /[^\t\n\r\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/;

export function fontFor(doc: PdfDocument): 'Helvetica' | 'Roboto' {
  return doc.embedFonts || OUTSIDE_WINANSI.test(JSON.stringify(doc)) ? 'Roboto' : 'Helvetica';
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
pdfmake.addTableLayouts({ payroll: payrollTable });

export default async function render(doc: PdfDocument): Promise<Uint8Array> {
  const { pageFooter, embedFonts: _embedFonts, ...definition } = doc;
  const full: TDocumentDefinitions = {
    ...definition,
    defaultStyle: { ...definition.defaultStyle, font: fontFor(doc) },
    footer: (page, pages) => ({
      margin: [50, 20, 50, 0],
      fontSize: 8,
      color: '#555',
      columns: [{ text: pageFooter ?? '' }, { text: `Page ${page} / ${pages}`, alignment: 'right', width: 'auto' }],
    }),
  };
  return pdfmake.createPdf(full).getBuffer();
}
