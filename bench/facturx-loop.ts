/**
 * The limit of Factur-X invoice PDFs (`GET /api/staff/facturation/:id/pdf-url` on invoices never
 * rendered): the plain invoice PDF, i.e. pdfmake, through the service's own worker module called
 * directly, rendering `invoiceDocument(input)` of the same invoices in a loop in one process, one
 * at a time, without the Factur-X step (XML, PDF/A-3, attachment) nor storing anything. Each
 * invoice's input is built as the service builds it (`documentInput` of its row and the operator
 * settings, read once, before the loop).
 *
 * Usage: node --import tsx bench/facturx-loop.ts '{"databaseUrl":…,"invoiceIds":[…],"operatorEnv":{…},"seconds":6,"out":"/tmp/x.pdf"}'
 * Prints one JSON line: `{ pdfs, seconds, rate, bytes, cpu_ms }` (`cpu_ms`: the process's CPU a PDF); writes the first invoice's PDF to `out`.
 */
import fs from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { findInvoice } from '../src/invoices/invoices.repository.ts';
import { documentInput } from '../src/invoices/invoices.service.ts';
import { invoiceDocument } from '../src/invoices/invoice.pdf.ts';
import render from '../src/pdf/pdf.worker.ts';

const input = JSON.parse(process.argv[2] ?? '{}') as {
  databaseUrl: string;
  invoiceIds: string[];
  operatorEnv: Record<string, string>;
  seconds: number;
  out?: string;
};
const config = loadConfig(input.operatorEnv);
const handle = await openDatabase({ databaseUrl: input.databaseUrl, pgliteDir: 'memory://', maxConnections: 1 });
const docs = [];
for (const id of input.invoiceIds) {
  const row = await findInvoice(handle.db, null, id);
  if (!row) throw new Error(`invoice ${id} not found`);
  docs.push(invoiceDocument(documentInput(row, config)));
}
await handle.close();

// pdfmake writes its layout into the definition it renders: each rendering gets a fresh copy,
// as each of the service's does (the worker pool's message is a structured clone).
// One warm-up rendering (fonts, code), not counted: the first invoice's, written to `out`.
const first = await render(structuredClone(docs[0]!));
if (input.out) fs.writeFileSync(input.out, first);
const cpu = process.cpuUsage();
const started = performance.now();
let pdfs = 0;
let bytes = 0;
while (performance.now() - started < input.seconds * 1000) {
  const pdf = await render(structuredClone(docs[pdfs % docs.length]!));
  pdfs++;
  bytes += pdf.byteLength;
}
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
const cpuMs = (used.user + used.system) / 1000 / Math.max(1, pdfs);
process.stdout.write(`${JSON.stringify({ pdfs, seconds, rate: pdfs / seconds, bytes: pdfs ? bytes / pdfs : first.byteLength, cpu_ms: cpuMs })}\n`);
