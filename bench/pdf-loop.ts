/**
 * The limit of `POST /api/generate-contract-pdf`: the PDF library (pdfmake, through the
 * service's own worker module, called directly) rendering the same contract document in a loop
 * in one process, one at a time. The document is built as the service builds it, from the
 * same rows (read once).
 *
 * Usage: node --import tsx bench/pdf-loop.ts '{"databaseUrl":…,"orgId":…,"contractId":…,"seconds":6,"out":"/tmp/x.pdf"}'
 * Prints one JSON line: `{ pdfs, seconds, rate, bytes }`; writes the last PDF to `out`.
 */
import fs from 'node:fs';
import { openDatabase } from '../src/db/database.ts';
import { readContractDocument } from '../src/contracts/contracts.service.ts';
import render from '../src/pdf/pdf.worker.ts';

const input = JSON.parse(process.argv[2] ?? '{}') as { databaseUrl: string; orgId: string; contractId: string; seconds: number; out?: string };
const handle = await openDatabase({ databaseUrl: input.databaseUrl, pgliteDir: 'memory://', maxConnections: 1 });
const { document: doc } = await readContractDocument(handle.db, input.orgId, input.contractId);
await handle.close();

// pdfmake writes its layout into the definition it renders: each rendering gets a fresh copy,
// as each of the service's does (the worker pool's message is a structured clone).
// One warm-up rendering (fonts, code), not counted.
let last = await render(structuredClone(doc));
const started = performance.now();
let pdfs = 0;
let bytes = 0;
while (performance.now() - started < input.seconds * 1000) {
  last = await render(structuredClone(doc));
  pdfs++;
  bytes += last.byteLength;
}
const seconds = (performance.now() - started) / 1000;
if (input.out) fs.writeFileSync(input.out, last);
process.stdout.write(`${JSON.stringify({ pdfs, seconds, rate: pdfs / seconds, bytes: bytes / pdfs })}\n`);
