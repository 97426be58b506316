/**
 * `renderPdf(doc)`: the one PDF renderer (pdfmake, server side, no browser) in a pool of
 * rendering processes, so that rendering never blocks the event loop (`GET
 * /api/access` keeps its latency while PDFs are rendered).
 *
 * One process per core, each at the lowest priority as a whole, its garbage collector included
 * (`src/workers/idle-processes.ts`): rendering takes whatever CPU the requests leave. The
 * processes start with the first PDF and stop after a minute without work, or on
 * `closeRenderers()` (the server's shutdown, a test file's end).
 *
 * `generatingPdf(generate)`: a PDF's generation (its data read, its rendering, its storage) in
 * one of as many slots as there are renderers; the others wait before touching the database.
 */
import os from 'node:os';
import pLimit from 'p-limit';
import { idleProcessPool } from '../workers/idle-processes.ts';
import type { PdfDocument } from './document.ts';

export type { PdfDocument };

const PDF_PROCESSES = os.availableParallelism();

const renderers = idleProcessPool({
  module: './pdf.process',
  from: import.meta.url,
  processes: PDF_PROCESSES,
  /**
   * A renderer's heap, bounded.
   * - Old generation 256 MB. Left to itself V8 lets it fill to four times what it keeps before
   *   collecting it, so the RSS crept up over thousands of PDFs with nothing leaking; capped, V8
   *   collects it at 1.3 times (its growth factor scales with the cap). A renderer keeps about
   *   13 MB between contracts.
   * - Young generation 32 MB (11 MB semi-spaces). At 16 (and 24) it filled every 10-15 ms, in the
   *   middle of each contract: every scavenge promoted the layout in progress, and the old
   *   generation was marked four times a second. At 32: an eighth of the mark-compacts, a fifth
   *   to a quarter less CPU a PDF (bench/README.md, 2026-11-26).
   */
  v8Flags: ['--max-semi-space-size=11', '--max-old-space-size=256'],
  // A PDF's bytes come back as bytes, not as JSON.
  serialization: 'advanced',
});

export async function renderPdf(doc: PdfDocument): Promise<Buffer> {
  const bytes: Uint8Array = await renderers.exec('render', [doc]);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Eight generations let in at once (the bench's 8 connections) rendered no faster than two, the
 * renderers being two: the other six read their data and then waited for a renderer, and came
 * back to the event loop and PostgreSQL together. With one slot a renderer, the PDF rate stayed
 * the same and `GET /api/access`'s p99 beside them fell (the loaded windows' median 8-9 ms
 * against 11-18, bench/README.md, 2026-11-30).
 */
const generations = pLimit(PDF_PROCESSES);

export function generatingPdf<T>(generate: () => Promise<T>): Promise<T> {
  return generations(generate);
}

export function closeRenderers(): Promise<void> {
  return renderers.close();
}
