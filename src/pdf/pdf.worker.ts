/**
 * One PDF rendering, in a worker thread of the pool (`render.ts`): pdfmake lays out and
 * compresses synchronously, which would stall the event loop for tens of milliseconds.
 *
 * What cannot cross threads (functions) is set up here: the fonts, the table layout, the footer.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';
import pdfmake from 'pdfmake';
import type { CustomTableLayout, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { PdfDocument } from './document.ts';

/**
 * A render thread takes only the CPU nothing else wants, so that `GET /api/access` keeps its
 * latency while every core renders. On Linux a thread's scheduling is its own (the process's
 * other threads keep theirs): as SCHED_IDLE (set by util-linux's `chrt`) it gives up its core
 * the moment any other thread wakes, the event loop or PostgreSQL; under PDFs at 8 connections
 * the event loop then waited for a core 136-161 ms a second, against 233-238 at nice +10, which
 * remains the fallback (bench/README.md). Not in a main thread (the bench's loop imports this
 * module), nor elsewhere than Linux, where it would lower the whole process.
 */
const RENDER_NICENESS = 10;
function yieldTheCpu(): void {
  if (isMainThread || process.platform !== 'linux') return;
  try {
    const threadId = fs.readlinkSync('/proc/thread-self').split('/').at(-1)!;
    execFileSync('chrt', ['--idle', '--pid', '0', threadId], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    os.setPriority(Math.min(19, os.getPriority() + RENDER_NICENESS));
  }
}
yieldTheCpu();

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
  return OUTSIDE_WINANSI.test(JSON.stringify(doc)) ? 'Roboto' : 'Helvetica';
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
  const { pageFooter, ...definition } = doc;
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
