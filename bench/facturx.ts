/**
 * Issue 38: Factur-X invoice PDFs against the plain invoice PDF, by the method of `run.ts` and of
 * the contract PDFs (`modules.ts`): one run, rounds alternating service and limit, medians.
 *
 * - Service: `GET /api/staff/facturation/:id/pdf-url` as staff, at 8 connections, each request on
 *   an invoice never rendered yet, so that each renders its PDF (pdfmake, in the service's worker
 *   pool), makes it Factur-X (the EN 16931 XML, PDF/A-3, the attachment) and stores both files.
 *   The invoices are created beforehand through the service's bulk-create (`billing.ts`).
 * - Limit: the plain invoice PDF, i.e. pdfmake rendering `invoiceDocument(input)` of the same
 *   invoices in a loop in one process (`facturx-loop.ts`, the service's worker module called
 *   directly). Checked first: the Factur-X PDF's text (unpdf, as the tests read PDFs) is the
 *   plain PDF's, and the Factur-X PDF carries `factur-x.xml`.
 *
 * `ratio` = Factur-X PDFs/s ÷ plain PDFs/s; target 0.5 (Factur-X adds the XML, the PDF/A-3
 * conversion and the attachment, and stores two files).
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { getDocumentProxy } from 'unpdf';
import type { LoadSpec } from './load.ts';
import { pdfText } from '../test/support/documents.ts';
import { FACTUR_X_OPERATOR_ENV } from '../test/support/operator.ts';
import { billedOrgs, bulkCreateInvoices, HEADER, LINES } from './billing.ts';
import { request, stopAndCheck } from './modules.ts';
import {
  alternating, checkLoad, fmtLoad, label, log, median, medianCpu, problem, quick, results, round, rounds, runJsonScript, runLoad, runLoadWithCpu,
  startService, summarize, tmpDir, durationSeconds, type CpuSample, type Server,
} from './harness.ts';

const CONNECTIONS = 8;
/** Invoices rendered in each counted round, and in the uncounted warm-up, by the service (autocannon wants at least one a connection): with the check's, 400 in all (20 in quick mode). */
const PER_ROUND = quick ? 11 : 120;
const WARMUP = quick ? 8 : 39;

interface LoopResult { pdfs: number; seconds: number; rate: number; bytes: number; cpu_ms: number }

/** The PDF a signed link (written with PUBLIC_URL's host) points to, fetched on the server's own address. */
async function fetchSigned(server: Server, url: string): Promise<Buffer> {
  const parsed = new URL(url);
  const answer = await request('GET', `${server.base}${parsed.pathname}${parsed.search}`, {});
  if (answer.status !== 200) throw new Error(`the PDF link answered ${answer.status}`);
  return answer.body;
}

async function attachmentNames(pdf: Buffer): Promise<string[]> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  try {
    return Object.keys(((await document.getAttachments()) ?? {}) as Record<string, unknown>);
  } finally {
    await document.destroy();
  }
}

export async function facturxScenario(dbUrl: string, staffCookie: string, client: pg.Client): Promise<void> {
  // One invoice for the check, the warm-up's, then each round's: every request a fresh one.
  const total = 1 + WARMUP + rounds * PER_ROUND;
  log(`\n== GET /api/staff/facturation/:id/pdf-url (Factur-X PDF) vs the plain invoice PDF, ${label(total)} invoices, ${CONNECTIONS} connections ==`);
  const orgIds = await billedOrgs(client, total);
  const invoices = Array.from({ length: total }, (_, i) => ({ org_id: orgIds[i % orgIds.length]!, lines: LINES }));
  const service = await startService(dbUrl, undefined, { env: FACTUR_X_OPERATOR_ENV });
  const serviceRuns: Array<CpuSample & { main_thread_cpu_ms: number }> = [];
  const loopRuns: LoopResult[] = [];
  try {
    const created = await bulkCreateInvoices(service, staffCookie, JSON.stringify({ ...HEADER, invoices }));
    if (created.length !== total) throw new Error(`bulk-create answered ${created.length} invoices, not ${total}`);
    const ids = created.map((c) => c.id);
    const [checkId, ...rest] = ids;
    const warmIds = rest.slice(0, WARMUP);
    const roundIds = Array.from({ length: rounds }, (_, r) => rest.slice(WARMUP + r * PER_ROUND, WARMUP + (r + 1) * PER_ROUND));
    const loopInput = (seconds: number, out?: string) => ({ databaseUrl: dbUrl, invoiceIds: ids, operatorEnv: FACTUR_X_OPERATOR_ENV, seconds, out });
    const spec = (batch: string[]): LoadSpec => ({
      url: `${service.base}/api/staff/facturation/${batch[0]}/pdf-url`,
      connections: CONNECTIONS,
      durationSeconds,
      amount: batch.length,
      method: 'GET',
      headers: { cookie: staffCookie },
      paths: batch.map((id) => `/api/staff/facturation/${id}/pdf-url`),
    });
    /** Every invoice of a batch was rendered and stored (each request hit a fresh invoice). */
    const checkRendered = async (batch: string[], what: string) => {
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from public.invoices where id = any($1::uuid[]) and pdf_id is not null and xml_id is not null', [batch]);
      if (rows[0]!.n !== batch.length) problem(`${what}: ${rows[0]!.n} of ${batch.length} invoices have their Factur-X PDF and XML stored`);
    };

    // The same document: the Factur-X PDF's text is the plain PDF's, and it carries factur-x.xml.
    const answer = await request('GET', `${service.base}/api/staff/facturation/${checkId}/pdf-url`, { cookie: staffCookie });
    if (answer.status !== 200) throw new Error(`GET pdf-url: ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
    const facturx = await fetchSigned(service, (JSON.parse(answer.body.toString('utf8')) as { url: string }).url);
    const plainFile = path.join(tmpDir, 'plain-invoice.pdf');
    await runJsonScript<LoopResult>('bench/facturx-loop.ts', loopInput(0.2, plainFile));
    const [a, b] = [await pdfText(facturx), await pdfText(fs.readFileSync(plainFile))];
    if (a !== b) {
      let at = 0;
      while (a[at] === b[at]) at++;
      const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 40));
      problem(`the Factur-X PDF and the plain PDF do not say the same (text from character ${at}: ${around(a)} vs ${around(b)})`);
    }
    const names = await attachmentNames(facturx);
    if (names.join() !== 'factur-x.xml') problem(`the Factur-X PDF's attachments: ${JSON.stringify(names)}, expected ["factur-x.xml"]`);
    if (!facturx.toString('latin1').includes('<pdfaid:part>3</pdfaid:part>')) problem('the Factur-X PDF has no PDF/A-3 identification');
    if (a === b && names.join() === 'factur-x.xml') {
      log(`  same text; factur-x.xml attached: ${facturx.length} bytes (Factur-X) vs ${fs.statSync(plainFile).size} (plain)`);
    }

    // Warm-up (uncounted): the renderer's threads started, the Factur-X library's code compiled.
    const warm = await runLoad(spec(warmIds));
    checkLoad('Factur-X PDFs, warm-up', warm);
    for (let r = 0; r < rounds; r++) {
      const runService = async () => {
        const batch = roundIds[r]!;
        const result = await runLoadWithCpu(spec(batch), service.pid);
        log(`  Factur-X round ${r + 1}: ${fmtLoad(result).replace('req/s', 'PDF/s')}  CPU/PDF: server ${result.server_cpu_ms} ms (event loop ${result.main_thread_cpu_ms}), PostgreSQL ${result.postgres_cpu_ms} ms`);
        checkLoad(`Factur-X PDFs, round ${r + 1}`, result);
        if (result.requests !== batch.length) problem(`Factur-X PDFs, round ${r + 1}: ${result.requests} requests, expected ${batch.length}`);
        await checkRendered(batch, `Factur-X PDFs, round ${r + 1}`);
        serviceRuns.push(result);
      };
      const runLoop = async () => {
        const result = await runJsonScript<LoopResult>('bench/facturx-loop.ts', loopInput(durationSeconds));
        log(`  plain    round ${r + 1}: ${result.rate.toFixed(1).padStart(8)} PDF/s (one process, one at a time)  CPU/PDF: ${result.cpu_ms.toFixed(2)} ms`);
        if (!(result.pdfs > 0)) problem('the plain invoice PDF loop rendered nothing');
        loopRuns.push(result);
      };
      await alternating(r, runService, runLoop);
    }
  } finally {
    await stopAndCheck(service);
  }
  if (!serviceRuns.length || !loopRuns.length) return;
  const svc = summarize(serviceRuns);
  const plainRate = round(median(loopRuns.map((r) => r.rate)), 1);
  results.push({
    scenario: `GET /api/staff/facturation/:id/pdf-url, Factur-X PDF (vs plain invoice PDF), ${CONNECTIONS} connections (PDFs/s)`,
    ...svc,
    limit_rps: plainRate,
    ratio: round(svc.rps / plainRate, 2),
    target_ratio: 0.5,
    limit_form: 'the plain invoice PDF: pdfmake rendering invoiceDocument(input) of the same invoices in a loop in one process (bench/facturx-loop.ts)',
    runs: serviceRuns.map((s) => round(s.rps, 1)),
    limit_runs: loopRuns.map((s) => round(s.rate, 1)),
    ...medianCpu(serviceRuns),
    main_thread_cpu_ms: median(serviceRuns.map((s) => s.main_thread_cpu_ms)),
    // The loop's CPU a PDF: against `server_cpu_ms`, what a Factur-X PDF costs beyond the plain
    // one, whatever the cores (the service renders on its pool's threads, the loop on one).
    limit_server_cpu_ms: round(median(loopRuns.map((r) => r.cpu_ms)), 2),
    invoices_per_round: PER_ROUND,
    connections: CONNECTIONS,
  });
}
