/**
 * `renderPdf(doc)`: the one PDF renderer (pdfmake, server side, no browser) in a pool of
 * worker threads, so that rendering never blocks the event loop (issue 18: `GET /api/access`
 * keeps its latency while PDFs are rendered).
 *
 * The pool has one thread per core, each at a lower priority than the event loop (see
 * `pdf.worker.ts`): rendering takes whatever CPU the requests leave, and a request never waits
 * behind a PDF for a core. Threads start on the first PDF and stop after a minute without
 * work; an idle pool never keeps the process alive.
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import type { PdfDocument } from './document.ts';

export type { PdfDocument };

// Under tsx (tests, CLI) this file is render.ts and the worker is TypeScript: the worker
// thread needs tsx's loader too, which `bin/` registers in the main thread only. From the
// compiled `dist/`, both are .js.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER = new URL(fromSource ? './pdf.worker.ts' : './pdf.worker.js', import.meta.url);
const hasTsx = process.execArgv.some((arg, i, all) => /^--(import|loader)=?tsx/.test(arg) || (arg === '--import' && all[i + 1] === 'tsx'));

export const PDF_THREADS = os.availableParallelism();

/**
 * A render thread's heap, bounded.
 * - Old generation 256 MB. Left to itself V8 lets it fill to four times what it keeps before
 *   collecting it, so the server's RSS crept up over thousands of PDFs with nothing leaking;
 *   capped, V8 collects it at 1.3 times (its growth factor scales with the cap). A thread keeps
 *   about 13 MB between contracts; a document that would need 256 MB fails alone, its thread
 *   replaced.
 * - Young generation 32 MB. At 16 (and 24) it filled every 10-15 ms, in the middle of each
 *   contract: every scavenge promoted the layout in progress, and the old generation was marked
 *   four times a second, by V8's helper threads, which run at normal priority beside the event
 *   loop (1.5-2.1 ms of their CPU a PDF). At 32: 0.5 ms, an eighth of the mark-compacts, a fifth
 *   to a quarter less CPU a PDF, for about 45 MB more RSS (bench/README.md, 2026-11-26).
 */
const RENDER_THREAD_LIMITS = { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 256 };

let pool: Piscina | null = null;

function renderers(): Piscina {
  pool ??= new Piscina({
    filename: WORKER.href,
    minThreads: 0,
    maxThreads: PDF_THREADS,
    idleTimeout: 60_000,
    resourceLimits: RENDER_THREAD_LIMITS,
    // Inherited, not passed: Node refuses a worker whose explicit execArgv holds a V8 or
    // process-wide flag (`node --max-old-space-size=… dist/server.js`: every PDF failed).
    execArgv: fromSource && !hasTsx ? ['--import', 'tsx'] : undefined,
  });
  return pool;
}

export async function renderPdf(doc: PdfDocument): Promise<Buffer> {
  const bytes: Uint8Array = await renderers().run(doc);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Stops the threads (graceful shutdown); a later `renderPdf` starts a new pool. */
export async function closePdfRenderer(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
