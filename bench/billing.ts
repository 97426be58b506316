/**
 * Bulk invoicing against its limits, by the method of `run.ts` (one run, rounds
 * alternating service and limit, medians):
 *
 * - `POST /api/staff/facturation/bulk-create` of 5,000 invoices (numbered, checked, with their
 *   audit events): seconds, against one `INSERT … SELECT` of the same rows sent by `pg` as one
 *   JSON parameter (numbers and totals already computed). Target: within 3 times it.
 * - `POST /api/staff/facturation/bulk-notify` of 5,000 invoices: seconds until the answer (every
 *   e-mail is then in the outbox: it is written in the request's transaction), and until the
 *   worker has handed every one to an SMTP server that accepts at once (`smtp-server`, in this
 *   process). Target: the request under 5 seconds; the delivery rate is reported.
 */
import { SMTPServer } from 'smtp-server';
import type pg from 'pg';
import { request, stopAndCheck } from './modules.ts';
import { alternating, freePort, label, log, median, problem, quick, results, round, rounds, startService, type Server } from './harness.ts';

const INVOICES = quick ? 200 : 5000;
/**
 * Rounds of bulk-create and its limit: a round lasts a third of a second, so one stall of the
 * shared host moves a median of three (ratios of 0.27 to 0.42 across the runs of 2026-11-26 to
 * 28 on unchanged code); seven cost three seconds more. Bulk-notify, half a minute a round on a
 * slow host, keeps `rounds`.
 */
const CREATE_ROUNDS = quick ? rounds : Math.max(rounds, 7);
/** Each invoice: 12 payslips at 18.50 and a file fee, VAT 20 %: 247.00 HT, 49.40 VAT, 296.40 TTC. */
export const LINES = [
  { label: 'Gestion de la paie (bulletins)', quantity: 12, unit_price: '18.50', vat_rate: '20.00' },
  { label: 'Frais de dossier', quantity: 1, unit_price: '25.00', vat_rate: '20.00' },
];
const TOTALS = { total_ht: '247.00', total_vat: '49.40', total_ttc: '296.40' };
/** Issued today (Paris): the series is chronological and refuses a date more than 5 days ahead. */
const TODAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
export const HEADER = { invoice_type: 'paie_mensuelle', payment_method: 'prelevement', period_label: 'Paie du mois', issue_date: TODAY };
/**
 * The limit's rows are numbered in a year of their own, so that both series stay continuous, and
 * dated in the past, before every invoice of the service: an invoice is never dated before the
 * last one issued, and the limit's rows must not become that last one.
 */
const LIMIT_YEAR = 2001;

/** Up to `count` client organizations, each given a notification address (and every third a Cc). */
export async function billedOrgs(client: pg.Client, count: number): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(`select id from public.organizations where name not like 'bench-modules-marker-%' order by id limit $1`, [
    count,
  ]);
  await client.query(
    `update public.organizations o
        set email_notifs = array['factures-' || x.n || '@bench.test'],
            email_notifs_cc = case when x.n % 3 = 0 then array['direction-' || x.n || '@bench.test'] else '{}' end
       from (select id, row_number() over (order by id) as n from public.organizations where id = any($1::uuid[])) x
      where o.id = x.id`,
    [rows.map((r) => r.id)],
  );
  return rows.map((r) => r.id);
}

export interface CreatedInvoice {
  id: string;
  number: string;
  total_ttc: string;
}

/** `POST /api/staff/facturation/bulk-create` as staff, `body` its JSON text: the invoices created, in request order. */
export async function bulkCreateInvoices(service: Server, staffCookie: string, body: string): Promise<CreatedInvoice[]> {
  const answer = await request('POST', `${service.base}/api/staff/facturation/bulk-create`, { cookie: staffCookie, 'content-type': 'application/json' }, body);
  if (answer.status !== 201) throw new Error(`bulk-create: ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
  return (JSON.parse(answer.body.toString('utf8')) as { created: CreatedInvoice[] }).created;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = process.hrtime.bigint();
  const value = await run();
  return { value, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

interface SmtpSink {
  url: string;
  received(): number;
  close(): Promise<void>;
}

/** An SMTP server that accepts every message at once and counts them. */
async function smtpSink(): Promise<SmtpSink> {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    // No reverse DNS of the client (this machine has no resolver for it: each lookup would wait).
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        count++;
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function billingScenario(dbUrl: string, staffCookie: string, client: pg.Client): Promise<void> {
  log(`\n== POST /api/staff/facturation/bulk-create and bulk-notify, ${label(INVOICES)} invoices ==`);
  const orgIds = await billedOrgs(client, INVOICES);
  const invoices = Array.from({ length: INVOICES }, (_, i) => ({ org_id: orgIds[i % orgIds.length]!, lines: LINES }));
  const body = JSON.stringify({ ...HEADER, invoices });
  const sink = await smtpSink();
  const service = await startService(dbUrl, sink.url);
  const headers = { cookie: staffCookie, 'content-type': 'application/json' };
  const bulkCreate = () => bulkCreateInvoices(service, staffCookie, body);
  const { rows: start } = await client.query<{ n: number }>(
    `select coalesce(max(substr(number, 8)::int), 0) as n from public.invoices where number like 'F-${LIMIT_YEAR}-%'`,
  );
  let limitNext = start[0]!.n + 1;
  const limitInsert = async () => {
    const rows = invoices.map((inv, i) => ({
      number: `F-${LIMIT_YEAR}-${String(limitNext + i).padStart(6, '0')}`,
      org_id: inv.org_id,
      lines: inv.lines,
      ...TOTALS,
    }));
    limitNext += rows.length;
    const { rowCount } = await client.query(
      `insert into public.invoices (number, org_id, invoice_type, payment_method, period_label, issue_date, due_date, lines, total_ht, total_vat, total_ttc)
       select r.number, r.org_id, 'paie_mensuelle', 'prelevement', 'Janvier ${LIMIT_YEAR}', '${LIMIT_YEAR}-01-31', '${LIMIT_YEAR}-02-15', r.lines, r.total_ht, r.total_vat, r.total_ttc
         from jsonb_to_recordset($1::jsonb) as r(number text, org_id uuid, lines jsonb, total_ht numeric, total_vat numeric, total_ttc numeric)`,
      [JSON.stringify(rows)],
    );
    if (rowCount !== INVOICES) problem(`the limit inserted ${rowCount} invoices, not ${INVOICES}`);
  };

  const createSeconds: number[] = [];
  const limitSeconds: number[] = [];
  const notifySeconds: number[] = [];
  const deliverySeconds: number[] = [];
  try {
    // Warm-up, not counted: one bulk of each at full size, as the load scenarios run 2 s before
    // their first round. A bulk of 10 left the first counted rounds warming (compiled code for
    // loops of 5,000, PostgreSQL's caches): 0.76, 0.61, 0.46 s in three rounds, the median the
    // second (bench/README.md).
    await bulkCreate();
    await limitInsert();
    for (let r = 0; r < CREATE_ROUNDS; r++) {
      const runService = async () => {
        const { value: created, seconds } = await timed(bulkCreate);
        if (created.length !== INVOICES || created.some((c) => c.total_ttc !== TOTALS.total_ttc))
          problem(`bulk-create answered ${created.length} invoices or wrong totals`);
        const numbers = created.map((c) => Number(c.number.slice(7)));
        if (numbers.some((n, i) => i > 0 && n !== numbers[i - 1]! + 1)) problem('bulk-create numbers are not continuous in request order');
        log(`  service bulk-create round ${r + 1}: ${seconds.toFixed(2)} s`);
        createSeconds.push(seconds);
        return created;
      };
      const runLimit = async () => {
        const { seconds } = await timed(limitInsert);
        log(`  limit   INSERT…SELECT round ${r + 1}: ${seconds.toFixed(2)} s`);
        limitSeconds.push(seconds);
      };
      const created = await alternating(r, runService, runLimit);
      if (r >= rounds) continue;

      // Notify the invoices this round created, as if their documents were made: an invoice is
      // announced only once its Factur-X exists (docs/jobs.md), and making 5,000 documents is
      // the Factur-X scenario's measure, not this one's. (This service has no operator identity:
      // their jobs fail at once and stay out of the way.)
      await client.query(
        `with doc as (insert into public.files (org_id, filename, content_type, size, content) values (null, 'bench.pdf', 'application/pdf', 4, '\\x25504446'::bytea) returning id)
         update public.invoices set pdf_id = doc.id, xml_id = doc.id from doc where public.invoices.id = any($1::uuid[])`,
        [created.map((c) => c.id)],
      );
      const { rows: before } = await client.query<{ id: string }>(`select coalesce(max(id), 0)::text as id from public.mail_outbox`);
      const sentBefore = sink.received();
      const ids = created.map((c) => c.id);
      const started = process.hrtime.bigint();
      const answer = await request('POST', `${service.base}/api/staff/facturation/bulk-notify`, headers, JSON.stringify({ invoice_ids: ids }));
      const requestSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const result = JSON.parse(answer.body.toString('utf8')) as { notified?: string[]; skipped?: unknown[] };
      if (answer.status !== 200 || result.notified?.length !== INVOICES) {
        problem(`bulk-notify: ${answer.status}, ${result.notified?.length} notified, ${JSON.stringify(result.skipped ?? []).slice(0, 200)}`);
        continue;
      }
      const { rows: queued } = await client.query<{ n: number }>(`select count(*)::int as n from public.mail_outbox where id > $1 and kind = 'invoice'`, [
        before[0]!.id,
      ]);
      if (queued[0]!.n !== INVOICES) problem(`bulk-notify queued ${queued[0]!.n} e-mails, not ${INVOICES}`);
      const deadline = Date.now() + 600_000;
      while (sink.received() - sentBefore < INVOICES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const delivered = Number(process.hrtime.bigint() - started) / 1e9;
      if (sink.received() - sentBefore < INVOICES) problem(`only ${sink.received() - sentBefore} of ${INVOICES} e-mails delivered in 10 minutes`);
      log(
        `  service bulk-notify round ${r + 1}: answer ${requestSeconds.toFixed(2)} s, all delivered ${delivered.toFixed(1)} s (${(INVOICES / delivered).toFixed(0)} e-mails/s)`,
      );
      notifySeconds.push(requestSeconds);
      deliverySeconds.push(delivered);
    }
  } finally {
    await stopAndCheck(service);
    await sink.close();
  }
  if (createSeconds.length) {
    const seconds = median(createSeconds);
    const limit = median(limitSeconds);
    results.push({
      scenario: `POST /api/staff/facturation/bulk-create, ${label(INVOICES)} invoices`,
      rps: null,
      p50_ms: null,
      p99_ms: null,
      limit_rps: null,
      seconds: round(seconds, 2),
      limit_seconds: round(limit, 2),
      ratio: round(limit / seconds, 2),
      target_ratio: 0.33,
      limit_form: 'one INSERT … SELECT from jsonb_to_recordset of the same rows (numbers, totals computed), through pg',
      runs: createSeconds.map((s) => round(s, 2)),
      limit_runs: limitSeconds.map((s) => round(s, 2)),
    });
  }
  if (notifySeconds.length) {
    const delivery = median(deliverySeconds);
    results.push({
      scenario: `POST /api/staff/facturation/bulk-notify, ${label(INVOICES)} invoices (SMTP accepts at once)`,
      rps: null,
      p50_ms: null,
      p99_ms: null,
      limit_rps: null,
      ratio: null,
      seconds: round(median(notifySeconds), 2),
      seconds_target: 5,
      delivery_seconds: round(delivery, 1),
      delivered_per_s: round(INVOICES / delivery, 0),
      runs: notifySeconds.map((s) => round(s, 2)),
      delivery_runs: deliverySeconds.map((s) => round(s, 1)),
    });
  }
}
