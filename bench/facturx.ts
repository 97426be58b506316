/**
 * Factur-X invoice PDFs against the plain invoice PDF, by the method of `run.ts` and of
 * the contract PDFs (`modules.ts`): one run, rounds alternating service and limit, medians.
 *
 * - Service: a round's invoices created through the service's bulk-create (`billing.ts`), then
 *   the time until its job worker has made every one's document (`invoice.document` jobs: the PDF
 *   in the service's renderer processes, made Factur-X with the EN 16931 XML, PDF/A-3 and the
 *   attachment, both files stored). No GET renders a document any more (docs/jobs.md).
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
import { pdfText } from '../test/support/documents.ts';
import { FACTUR_X_OPERATOR_ENV } from '../test/support/operator.ts';
import { billedOrgs, bulkCreateInvoices, HEADER, LINES } from './billing.ts';
import { request, stopAndCheck } from './modules.ts';
import {
  alternating,
  label,
  log,
  mainThreadCpuSeconds,
  median,
  medianCpu,
  postgresCpuSeconds,
  problem,
  quick,
  results,
  round,
  rounds,
  runJsonScript,
  serverTreeCpuSeconds,
  startService,
  summarize,
  tmpDir,
  durationSeconds,
  type CpuSample,
  type Server,
} from './harness.ts';

/** Invoices rendered in each counted round, and in the uncounted warm-up, by the service (autocannon wants at least one a connection): with the check's, 400 in all (20 in quick mode). */
const PER_ROUND = quick ? 11 : 120;
const WARMUP = quick ? 8 : 39;

interface LoopResult {
  pdfs: number;
  seconds: number;
  rate: number;
  bytes: number;
  cpu_ms: number;
}

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
  // One invoice for the check, the warm-up's, then each round's: every document a fresh one.
  const total = 1 + WARMUP + rounds * PER_ROUND;
  log(`\n== invoice.document jobs (Factur-X PDF made after bulk-create) vs the plain invoice PDF, ${label(total)} invoices ==`);
  const orgIds = await billedOrgs(client, total);
  const invoices = Array.from({ length: total }, (_, i) => ({ org_id: orgIds[i % orgIds.length]!, lines: LINES }));
  // The documents the bulk scenario's invoices still wait for are not this scenario's measure.
  await client.query(`delete from public.jobs where kind = 'invoice.document' and status in ('pending', 'running')`);
  const service = await startService(dbUrl, undefined, { env: FACTUR_X_OPERATOR_ENV });
  const serviceRuns: Array<CpuSample & { rps: number; p50_ms: number; p99_ms: number; main_thread_cpu_ms: number }> = [];
  const loopRuns: LoopResult[] = [];
  try {
    /**
     * A bulk-create of these invoices, then the wait (polling the table) until the service's job
     * worker has stored every one's Factur-X PDF and XML: documents a second, from the request to
     * the last commit, and the CPU it cost a document.
     */
    const allIds: string[] = [];
    const made = async (batch: typeof invoices, what: string) => {
      const before = [serverTreeCpuSeconds(service.pid), mainThreadCpuSeconds(service.pid), postgresCpuSeconds()];
      const started = process.hrtime.bigint();
      const created = await bulkCreateInvoices(service, staffCookie, JSON.stringify({ ...HEADER, invoices: batch }));
      const ids = created.map((c) => c.id);
      allIds.push(...ids);
      for (;;) {
        const { rows } = await client.query<{ stored: number; failed: number }>(
          `select count(*) filter (where i.pdf_id is not null and i.xml_id is not null)::int as stored,
                  (select count(*)::int from public.jobs j where j.kind = 'invoice.document' and j.status = 'failed' and j.subject_id = any($1::text[])) as failed
             from public.invoices i where i.id = any($1::uuid[])`,
          [ids],
        );
        if (rows[0]!.stored === ids.length) break;
        if (rows[0]!.failed > 0) {
          problem(`${what}: ${rows[0]!.failed} document jobs failed`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const per = (cpu: number) => round((cpu * 1000) / Math.max(1, ids.length), 2);
      return {
        ids,
        rps: ids.length / seconds,
        p50_ms: 0,
        p99_ms: 0,
        server_cpu_ms: per(serverTreeCpuSeconds(service.pid) - before[0]!),
        main_thread_cpu_ms: per(mainThreadCpuSeconds(service.pid) - before[1]!),
        postgres_cpu_ms: per(postgresCpuSeconds() - before[2]!),
      };
    };
    const [checkInvoice, ...rest] = invoices;
    const {
      ids: [checkId],
    } = await made([checkInvoice!], 'the checked invoice');
    const loopInput = (seconds: number, out?: string) => ({ databaseUrl: dbUrl, invoiceIds: [...allIds], operatorEnv: FACTUR_X_OPERATOR_ENV, seconds, out });

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

    // Warm-up (uncounted): the renderer's processes started, the Factur-X library's code compiled.
    await made(rest.slice(0, WARMUP), 'Factur-X documents, warm-up');
    for (let r = 0; r < rounds; r++) {
      const runService = async () => {
        const result = await made(rest.slice(WARMUP + r * PER_ROUND, WARMUP + (r + 1) * PER_ROUND), `Factur-X documents, round ${r + 1}`);
        log(
          `  Factur-X round ${r + 1}: ${result.rps.toFixed(1).padStart(8)} PDF/s (jobs)  CPU/PDF: server ${result.server_cpu_ms} ms (event loop ${result.main_thread_cpu_ms}), PostgreSQL ${result.postgres_cpu_ms} ms`,
        );
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
    scenario: 'invoice.document jobs: Factur-X PDF and XML made after bulk-create (vs plain invoice PDF) (PDFs/s)',
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
  });
}
