/**
 * The month of an organization as drafts and published payslips: drafts stay drafts (never
 * cancelled, never given a PDF, refused at validation once their contract changed), a
 * recomputation and a validation racing end with one winner, and a contract amended after its
 * month was published is paid the difference by a complementary payslip.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, usingPostgres } from '../helper.ts';
import { setup } from '../payslips/support.ts';
import { evaluatingModel } from '../../src/payroll/model.ts';
import { computePayslip, type PayslipLine } from '../../src/payroll/compute.ts';
import { openDatabase } from '../../src/db/database.ts';
import { pdfText } from '../support/documents.ts';

const PERIOD = '2026-12';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

type Ctx = Awaited<ReturnType<typeof setup>>;

/** Hélène, an artist, with a December CDDU out for signature: two dates, 1,000.00. */
async function december(t: Parameters<typeof setup>[0]) {
  const ctx = await setup(t);
  await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.helene}`, { category: 'artiste' });
  const created = await ctx.call(ctx.agent, 'POST', '/api/contrats', {
    employee_id: ctx.helene,
    kind: 'CDDU',
    job_title: 'Comédienne',
    show_title: 'Le Songe',
    idcc: '3090',
    start_date: '2026-12-01',
    end_date: '2026-12-10',
    dates: [
      { date: '2026-12-04', nature: 'representation', quantity: 1, amount: '450' },
      { date: '2026-12-05', nature: 'representation', quantity: 1, amount: '550' },
    ],
  });
  assert.equal(created.statusCode, 201, created.body);
  const contract = created.json() as { id: string; contract_number: string };
  assert.equal((await ctx.call(ctx.agent, 'POST', `/api/contrats/${contract.id}/submit`)).statusCode, 200);
  return { ...ctx, contract };
}

/** Computes the month to its end (in this process) and returns the run. */
async function compute(ctx: Ctx) {
  const started = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
  assert.equal(started.statusCode, 202, started.body);
  await ctx.app.payroll.worker.runDue();
  const run = await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${started.json().run_id}`);
  assert.equal(run.json().status, 'termine', run.body);
  return run.json() as {
    id: string;
    payslips: Array<{ id: string; contract_id: string; gross: string }>;
    skipped: Array<{ contract_id: string; reason: string; message: string }>;
  };
}

const validate = (ctx: Ctx, payslip_ids?: string[]) =>
  ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, ...(payslip_ids ? { payslip_ids } : {}) });
const statuses = async (ctx: Ctx) =>
  (await ctx.db.selectFrom('payslips').select(['status', 'kind']).orderBy('created_at').execute()).map((r) => `${r.kind}:${r.status}`);

describe('Drafts stay drafts', () => {
  it('should refuse to cancel a draft or attach a PDF to it (409 payslip_is_draft), the organization never seeing it', async (t) => {
    const ctx = await december(t);
    const draft = (await compute(ctx)).payslips[0]!.id;

    const cancelled = await ctx.call(ctx.staff, 'POST', `/api/staff/payslips/${draft}/cancel`);
    assert.equal(cancelled.statusCode, 409, cancelled.body);
    assert.equal(cancelled.json().error, 'payslip_is_draft');
    assert.match(cancelled.json().message, /brouillon : il ne s’annule pas/);
    const attached = await ctx.call(ctx.staff, 'PUT', `/api/staff/payslips/${draft}/pdf`, PDF, { 'content-type': 'application/pdf' });
    assert.equal(attached.statusCode, 409, attached.body);
    assert.equal(attached.json().error, 'payslip_is_draft');
    const row = await ctx.db.selectFrom('payslips').select(['status', 'pdf_id']).where('id', '=', draft).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'brouillon', pdf_id: null });

    // Nothing of it reaches the organization: list, detail, bulletin, CSV.
    assert.deepEqual((await ctx.call(ctx.admin, 'GET', '/api/payslips')).json().items, []);
    assert.equal((await ctx.call(ctx.admin, 'GET', `/api/payslips/${draft}`)).statusCode, 404);
    assert.equal((await ctx.call(ctx.admin, 'GET', `/api/payslips/${draft}/pdf-url`)).statusCode, 404);
    const csv = await ctx.call(ctx.admin, 'GET', '/api/payslips.csv');
    assert.equal(csv.statusCode, 200);
    assert.doesNotMatch(csv.body, /Lefèvre/);
  });

  it('should refuse a draft whose contract was cancelled or amended since the computation (409 payslip_stale naming it), publishing nothing', async (t) => {
    const ctx = await december(t);
    const other = await ctx.call(ctx.agent, 'POST', '/api/contrats', {
      employee_id: ctx.helene,
      kind: 'CDDU',
      job_title: 'Comédienne',
      show_title: 'Le Songe',
      idcc: '3090',
      start_date: '2026-12-20',
      end_date: '2026-12-21',
      dates: [{ date: '2026-12-20', nature: 'representation', quantity: 1, amount: '300' }],
    });
    await ctx.call(ctx.agent, 'POST', `/api/contrats/${other.json().id}/submit`);
    const run = await compute(ctx);
    assert.equal(run.payslips.length, 2);

    // The second contract cancelled after the computation; the first amended by staff.
    assert.equal((await ctx.call(ctx.agent, 'POST', `/api/contrats/${other.json().id}/cancel`)).statusCode, 200);
    const res = await validate(
      ctx,
      run.payslips.map((p) => p.id),
    );
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().error, 'payslip_stale');
    assert.deepEqual(res.json().contract_numbers, [other.json().contract_number]);
    assert.deepEqual(res.json().payslip_ids, [run.payslips.find((p) => p.contract_id === other.json().id)!.id]);
    assert.match(res.json().message, new RegExp(`\\(${other.json().contract_number}\\).*Recalculez le mois`));
    assert.deepEqual(await statuses(ctx), ['normal:brouillon', 'normal:brouillon']);
    assert.equal((await ctx.db.selectFrom('contribution_calls').select('id').execute()).length, 0);

    // Salaries by date edited by staff: the first one is stale too, even with all drafts asked for.
    const edited = await ctx.call(ctx.staff, 'PATCH', `/api/staff/contrats/${ctx.contract.id}/salaires-par-date`, {
      dates: [
        { date: '2026-12-04', nature: 'representation', quantity: 1, amount: '450' },
        { date: '2026-12-05', nature: 'representation', quantity: 1, amount: '600' },
      ],
    });
    assert.equal(edited.statusCode, 200, edited.body);
    const all = await validate(ctx);
    assert.equal(all.statusCode, 409);
    assert.deepEqual(all.json().contract_numbers, [ctx.contract.contract_number, other.json().contract_number].sort());

    // Recomputed: the new draft validates.
    const again = await compute(ctx);
    assert.deepEqual(
      again.payslips.map((p) => p.gross),
      ['1050.00'],
    );
    assert.equal((await validate(ctx, [again.payslips[0]!.id])).statusCode, 200);
  });
});

describe('A recomputation racing a validation (PostgreSQL)', () => {
  /** Holds the month's lock from another connection until `release`; resolves once `waiters` wait on it. */
  async function holdMonth(ctx: Ctx) {
    const {
      rows: [current],
    } = await sql<{ name: string }>`select current_database() as name`.execute(ctx.db);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${current!.name}`;
    const other = await openDatabase({ databaseUrl: url.toString(), pgliteDir: 'memory://', maxConnections: 2 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const done = other.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`payroll-month:${ctx.soleil}:${PERIOD}`}, 0))`.execute(trx);
      held();
      await released;
    });
    await holding;
    /** Until `n` sessions wait on an advisory lock: each request has reached the month's lock. */
    const waiters = async (n: number) => {
      for (;;) {
        const { rows } = await sql<{ n: string }>`select count(*)::text as n from pg_locks where locktype = 'advisory' and not granted`.execute(other.db);
        if (Number(rows[0]!.n) >= n) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    return {
      waiters,
      release: async () => {
        release();
        await done;
        await other.close();
      },
    };
  }

  it('should publish the drafts when the validation commits first, the recomputation then computing around them', {
    skip: !usingPostgres && 'PostgreSQL only (TEST_DATABASE_URL)',
  }, async (t) => {
    const ctx = await december(t);
    const drafts = (await compute(ctx)).payslips.map((p) => p.id);
    const started = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
    const lock = await holdMonth(ctx);
    const validation = validate(ctx, drafts);
    await lock.waiters(1);
    const recomputation = ctx.app.payroll.worker.runDue();
    await lock.waiters(2);
    await lock.release();
    const [validated] = await Promise.all([validation, recomputation]);
    assert.equal(validated.statusCode, 200, validated.body);
    const run = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${started.json().run_id}`)).json();
    assert.equal(run.status, 'termine', JSON.stringify(run));
    assert.deepEqual(run.payslips, []);
    assert.deepEqual(
      run.skipped.map((s: { reason: string }) => s.reason),
      ['already_published'],
    );
    assert.deepEqual(await statuses(ctx), ['normal:publie']);
  });

  it('should refuse the validation as stale when the recomputation commits first, its new drafts then validating', {
    skip: !usingPostgres && 'PostgreSQL only (TEST_DATABASE_URL)',
  }, async (t) => {
    const ctx = await december(t);
    const drafts = (await compute(ctx)).payslips.map((p) => p.id);
    const started = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
    const lock = await holdMonth(ctx);
    const recomputation = ctx.app.payroll.worker.runDue();
    await lock.waiters(1);
    const validation = validate(ctx, drafts);
    await lock.waiters(2);
    await lock.release();
    const [validated] = await Promise.all([validation, recomputation]);
    assert.equal(validated.statusCode, 409, validated.body);
    assert.equal(validated.json().error, 'payslip_stale');
    assert.deepEqual(validated.json().payslip_ids, drafts);
    const run = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${started.json().run_id}`)).json();
    assert.equal(run.status, 'termine', JSON.stringify(run));
    assert.equal(run.payslips.length, 1);
    assert.notEqual(run.payslips[0].id, drafts[0]);
    assert.equal((await validate(ctx, [run.payslips[0].id])).statusCode, 200);
    assert.deepEqual(await statuses(ctx), ['normal:publie']);
  });
});

describe('Complementary payslips', () => {
  it('should pay an avenant adding two December dates (462.40) to a published December by a complementary payslip of the difference, line by line', async (t) => {
    const ctx = await december(t);
    const original = (await compute(ctx)).payslips[0]!.id;
    assert.equal((await validate(ctx, [original])).statusCode, 200);
    const published = (await ctx.call(ctx.staff, 'GET', `/api/staff/payslips/${original}`)).json();

    const amended = await ctx.call(
      ctx.staff,
      'POST',
      `/api/contrats/${ctx.contract.id}/avenants`,
      {
        end_date: '2026-12-14',
        dates: [
          { date: '2026-12-12', nature: 'representation', quantity: 1, amount: '231.20' },
          { date: '2026-12-13', nature: 'representation', quantity: 1, amount: '231.20' },
        ],
      },
      { 'x-active-org-id': ctx.soleil },
    );
    assert.equal(amended.statusCode, 200, amended.body);

    const run = await compute(ctx);
    assert.deepEqual(run.skipped, []);
    assert.equal(run.payslips.length, 1);
    assert.equal(run.payslips[0]!.gross, '462.40');
    const draft = (await ctx.call(ctx.staff, 'GET', `/api/staff/payslips/${run.payslips[0]!.id}`)).json();
    assert.equal(draft.kind, 'complementaire');
    assert.equal(draft.complements_id, original);

    // The month recomputed whole (from the draft's situation), minus what was published, line by line.
    const whole = computePayslip(evaluatingModel(), draft.situation);
    assert.equal(whole.gross, '1462.40');
    const cents = (m: string) => BigInt(m.replace('.', ''));
    const money = (c: bigint) => `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, '0')}`;
    const before = new Map((published.lines as PayslipLine[]).map((l) => [`${l.code}|${l.organism}`, l]));
    const expected = whole.lines
      .map((l) => {
        const p = before.get(`${l.code}|${l.organism}`);
        return [
          l.code,
          money(cents(l.base) - cents(p?.base ?? '0.00')),
          money(cents(l.employee_amount) - cents(p?.employee_amount ?? '0.00')),
          money(cents(l.employer_amount) - cents(p?.employer_amount ?? '0.00')),
        ];
      })
      .filter(([, base, ee, er]) => base !== '0.00' || ee !== '0.00' || er !== '0.00');
    assert.ok(expected.length > 5);
    assert.deepEqual(
      (draft.lines as PayslipLine[]).map((l) => [l.code, l.base, l.employee_amount, l.employer_amount]),
      expected,
    );
    for (const key of ['gross', 'employee_contributions', 'employer_contributions', 'net_to_pay', 'employer_cost', 'pas_amount'] as const) {
      assert.equal(draft[key], money(cents(whole[key]) - cents(published[key])), key);
    }

    // Validated like any draft; the organization sees both; a transfer may pay it; its bulletin says what it is.
    assert.equal((await validate(ctx)).statusCode, 200);
    const listed = (await ctx.call(ctx.admin, 'GET', '/api/payslips')).json().items as Array<{ id: string; kind: string; complements_id: string | null }>;
    assert.deepEqual(listed.map((p) => [p.kind, p.complements_id]).sort(), [
      ['complementaire', original],
      ['normal', null],
    ]);
    assert.deepEqual((await ctx.available()).map((p) => p.id).sort(), [original, draft.id].sort());
    await ctx.app.jobs.worker.runDue();
    const link = await ctx.call(ctx.admin, 'GET', `/api/payslips/${draft.id}/pdf-url`);
    assert.equal(link.statusCode, 200, link.body);
    const url = new URL(link.json().url);
    const text = await pdfText((await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).rawPayload);
    assert.match(text, /Bulletin complémentaire/);
    assert.match(text, /Complète le bulletin de paie de décembre 2026 déjà validé \(net payé/);

    // The original is not cancelled while its complement stands; a new computation has nothing left to pay.
    const cancel = await ctx.call(ctx.staff, 'POST', `/api/staff/payslips/${original}/cancel`);
    assert.equal(cancel.statusCode, 409);
    assert.equal(cancel.json().error, 'payslip_has_complement');
    const nothing = await compute(ctx);
    assert.deepEqual(nothing.payslips, []);
    assert.deepEqual(
      nothing.skipped.map((s) => s.reason),
      ['already_published'],
    );
  });

  it('should make no negative complementary payslip when dates of a published month are removed, saying why', async (t) => {
    const ctx = await december(t);
    assert.equal((await validate(ctx, [(await compute(ctx)).payslips[0]!.id])).statusCode, 200);
    const edited = await ctx.call(ctx.staff, 'PATCH', `/api/staff/contrats/${ctx.contract.id}/salaires-par-date`, {
      dates: [{ date: '2026-12-04', nature: 'representation', quantity: 1, amount: '450' }],
    });
    assert.equal(edited.statusCode, 200, edited.body);
    const run = await compute(ctx);
    assert.deepEqual(run.payslips, []);
    assert.deepEqual(
      run.skipped.map((s) => s.reason),
      ['complement_negative'],
    );
    assert.match(run.skipped[0]!.message, /aucun bulletin complémentaire négatif/);
    assert.deepEqual(await statuses(ctx), ['normal:publie']);
  });
});
