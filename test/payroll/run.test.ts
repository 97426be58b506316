/**
 * The payroll run through the API: drafts computed from the contracts by the
 * runner, the skipped contracts and why, validation with its contribution call, the job's
 * durability and its sharing between two instances, and the documented errors.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, sql } from '../helper.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { definePayrollRun } from '../../src/payroll/runner.ts';
import { setup } from '../payslips/support.ts';
import { evaluatingModel } from '../../src/payroll/model.ts';
import { computePayslip, type PayslipLine } from '../../src/payroll/compute.ts';
import { sumMoney, type Money } from '../../src/money/money.ts';

const PERIOD = '2027-03';

type Ctx = Awaited<ReturnType<typeof setup>>;

async function contract(ctx: Ctx, body: object): Promise<string> {
  const created = await ctx.call(ctx.agent, 'POST', '/api/contrats', body);
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().id as string;
  const submitted = await ctx.call(ctx.agent, 'POST', `/api/contrats/${id}/submit`);
  assert.equal(submitted.statusCode, 200, submitted.body);
  return id;
}

/** Hélène an artist (3 dates), Marc a technician (1 date), Zoé a CDI from the 10th, a CDD, a draft contract, a CDDU without category. */
async function month(ctx: Ctx) {
  await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.helene}`, { category: 'artiste' });
  await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.marc}`, { category: 'technicien' });
  await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.zoe}`, { category: 'permanent' });
  const noCategory = await ctx.employee(ctx.agent, 'Nina', 'Sanscat');
  const artist = await contract(ctx, {
    employee_id: ctx.helene,
    kind: 'CDDU',
    job_title: 'Comédienne',
    show_title: 'Le Songe',
    idcc: '3090',
    start_date: '2027-03-01',
    end_date: '2027-03-31',
    dates: [
      { date: '2027-03-02', nature: 'repetition', quantity: 1, amount: '300' },
      { date: '2027-03-03', nature: 'repetition', quantity: 1, amount: '300' },
      { date: '2027-03-20', nature: 'representation', quantity: 1, amount: '400' },
    ],
  });
  const technician = await contract(ctx, {
    employee_id: ctx.marc,
    kind: 'CDDU',
    job_title: 'Régisseur',
    show_title: 'Le Songe',
    idcc: '3090',
    start_date: '2027-03-01',
    end_date: '2027-03-31',
    dates: [{ date: '2027-03-20', nature: 'heures', quantity: 8, amount: '250' }],
  });
  const permanent = await contract(ctx, { employee_id: ctx.zoe, kind: 'CDI', job_title: 'Administratrice', start_date: '2027-03-10', monthly_gross: '2100' });
  const cdd = await contract(ctx, {
    employee_id: ctx.marc,
    kind: 'CDD',
    job_title: 'Régisseur',
    start_date: '2027-03-01',
    end_date: '2027-03-31',
    monthly_gross: '2000',
  });
  // Out for signature before a CDDU needed its employee's category: an old row.
  const uncategorized = (
    await ctx.call(ctx.agent, 'POST', '/api/contrats', {
      employee_id: noCategory,
      kind: 'CDDU',
      job_title: 'Musicienne',
      show_title: 'Le Songe',
      idcc: '3090',
      start_date: '2027-03-01',
      end_date: '2027-03-31',
      dates: [{ date: '2027-03-21', nature: 'representation', quantity: 1, amount: '200' }],
    })
  ).json().id as string;
  await ctx.db.updateTable('contracts').set({ status: 'a_signer' }).where('id', '=', uncategorized).execute();
  const aprilOnly = await contract(ctx, {
    employee_id: ctx.helene,
    kind: 'CDDU',
    job_title: 'Comédienne',
    show_title: 'Le Songe',
    idcc: '3090',
    start_date: '2027-03-25',
    end_date: '2027-04-30',
    dates: [{ date: '2027-04-10', nature: 'representation', quantity: 1, amount: '500' }],
  });
  // Still a draft: never computed.
  await ctx.call(ctx.agent, 'POST', '/api/contrats', { employee_id: ctx.zoe, kind: 'CDI', start_date: '2027-01-01', monthly_gross: '1800' });
  return { artist, technician, permanent, cdd, uncategorized, aprilOnly };
}

async function runToEnd(ctx: Pick<Ctx, 'call' | 'staff'>, runId: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${runId}`);
    assert.equal(res.statusCode, 200, res.body);
    const run = res.json();
    assert.ok(run.done <= run.total || run.total === 0);
    if (run.status !== 'en_cours') return run;
    if (Date.now() > until) throw new Error(`run still en_cours: ${res.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function compute(ctx: Ctx, org_id = ctx.soleil) {
  const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id, period: PERIOD });
  assert.equal(res.statusCode, 202, res.body);
  return runToEnd(ctx, res.json().run_id);
}

const cents = (m: string) => BigInt(m.replace('.', ''));

describe('POST /api/staff/paie/calcul', () => {
  it("should compute the month's drafts from the contracts, with the model's figures, and say why the others were skipped", async (t) => {
    const ctx = await setup(t);
    const ids = await month(ctx);
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    const run = await compute(ctx);
    assert.equal(run.status, 'termine', JSON.stringify(run));
    assert.equal(run.total, 3);
    assert.equal(run.done, 3);
    assert.deepEqual(
      run.skipped.map((s: { contract_id: string; reason: string }) => [s.contract_id, s.reason]).sort(),
      [
        [ids.cdd, 'cdd_not_computed'],
        [ids.aprilOnly, 'no_date_in_period'],
        [ids.uncategorized, 'not_computable'],
      ].sort(),
    );
    assert.match(run.skipped.find((s: { reason: string }) => s.reason === 'not_computable').message, /^Contrat C-\d{4}-\d{6} : la catégorie du salarié/);
    const byContract = new Map(run.payslips.map((p: { contract_id: string }) => [p.contract_id, p]));
    assert.deepEqual([...byContract.keys()].sort(), [ids.artist, ids.technician, ids.permanent].sort());
    assert.equal((byContract.get(ids.artist) as { gross: string }).gross, '1000.00');
    assert.equal((byContract.get(ids.technician) as { gross: string }).gross, '250.00');
    // 2,100.00 × 22 / 31 days.
    assert.equal((byContract.get(ids.permanent) as { gross: string }).gross, '1490.32');

    // The artist's draft, whole: the model's figures on its stored situation.
    const draftId = (byContract.get(ids.artist) as { id: string }).id;
    const res = await ctx.call(ctx.staff, 'GET', `/api/staff/payslips/${draftId}`);
    assert.equal(res.statusCode, 200, res.body);
    const draft = res.json();
    assert.equal(draft.status, 'brouillon');
    assert.equal(draft.source, 'calcule');
    assert.match(draft.model_version, /^modele-social@\d+\.\d+\.\d+\+spectacle\.\d+$/);
    assert.equal(draft.situation['salarié . régimes spécifiques . intermittents du spectacle'], "'artiste'");
    // The engagement is the contract's, the whole of March; three days of work in it.
    assert.equal(draft.situation['salarié . régimes spécifiques . intermittents du spectacle . artiste . nombre jours travaillés'], '31 jour');
    assert.equal(draft.situation['salarié . régimes spécifiques . intermittents du spectacle . artiste . jours de travail'], '3 jour/mois');
    assert.equal(draft.situation.date, "'01/03/2027'");
    const expected = computePayslip(evaluatingModel(), draft.situation);
    for (const key of [
      'gross',
      'employee_contributions',
      'employer_contributions',
      'net_before_tax',
      'net_taxable',
      'net_social',
      'pas_amount',
      'net_to_pay',
      'employer_cost',
    ] as const) {
      assert.equal(draft[key], expected[key], key);
    }
    assert.deepEqual(draft.lines, expected.lines);
    assert.equal(draft.employer_contributions, sumMoney(draft.lines.map((l: PayslipLine) => l.employer_amount)));
    assert.equal(cents(draft.net_to_pay), cents(draft.gross) - cents(draft.employee_contributions) - cents(draft.pas_amount));
    assert.deepEqual(draft.contract_ids, [ids.artist]);

    // The organization never sees a draft.
    const listed = await ctx.call(ctx.admin, 'GET', '/api/payslips');
    assert.deepEqual(listed.json().items, []);
    assert.equal((await ctx.call(ctx.admin, 'GET', `/api/payslips/${draftId}`)).statusCode, 404);
    assert.equal((await ctx.call(ctx.admin, 'GET', `/api/payslips/${draftId}/pdf-url`)).statusCode, 404);
    assert.deepEqual(await ctx.available(), []);

    // One payslip that is not cancelled per contract and period, whoever made it: a typed one
    // for the artist's contract is refused, naming the draft.
    const typed = await ctx.call(ctx.staff, 'POST', '/api/staff/payslips', {
      org_id: ctx.soleil,
      employee_id: ctx.helene,
      period: PERIOD,
      gross: '1000',
      net_to_pay: '700',
      contract_ids: [ids.artist],
    });
    assert.equal(typed.statusCode, 409);
    assert.deepEqual({ error: typed.json().error, payslip_id: typed.json().payslip_id }, { error: 'payslip_exists', payslip_id: draftId });
  });

  it('should write a run of more drafts than one statement inserts (ten), each with its own contract, lines and link', async (t) => {
    const ctx = await setup(t);
    const grossByContract = new Map<string, string>();
    for (let i = 0; i < 23; i++) {
      const employee = await ctx.employee(ctx.agent, 'Salarié', `Numéro ${i}`);
      await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${employee}`, { category: 'permanent' });
      const gross = `${2000 + i * 37}.${String(i).padStart(2, '0')}`;
      grossByContract.set(
        await contract(ctx, { employee_id: employee, kind: 'CDI', job_title: 'Administratrice', start_date: '2027-01-01', monthly_gross: gross }),
        gross,
      );
    }
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    const run = await compute(ctx);
    assert.equal(run.status, 'termine', JSON.stringify(run));
    assert.deepEqual([run.total, run.done, run.payslips.length, run.skipped.length], [23, 23, 23, 0]);
    // A whole month of a CDI: its gross is the contract's monthly gross, to the cent.
    assert.deepEqual(run.payslips.map((p: { contract_id: string; gross: string }) => [p.contract_id, p.gross]).sort(), [...grossByContract].sort());
    const stored = (
      await sql<{ contract_id: string; contract_ids: string[]; gross: string; lines: number }>`
      select l.contract_id, p.contract_ids, p.gross::text as gross, jsonb_array_length(p.lines) as lines
        from public.payslips p join public.payslip_contracts l on l.payslip_id = p.id
       where p.run_id = ${run.id}`.execute(ctx.db)
    ).rows;
    assert.equal(stored.length, 23);
    for (const row of stored) {
      assert.deepEqual(row.contract_ids, [row.contract_id]);
      assert.equal(row.gross, grossByContract.get(row.contract_id));
      assert.ok(Number(row.lines) > 5, `lines of ${row.contract_id}: ${row.lines}`);
    }
  });

  it('should answer the running run to a second request, and replace the drafts when computed again, keeping the published', async (t) => {
    const ctx = await setup(t);
    const ids = await month(ctx);
    const [a, b] = await Promise.all([
      ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD }),
      ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD }),
    ]);
    assert.equal(a.statusCode, 202);
    assert.equal(b.statusCode, 202);
    assert.equal(a.json().run_id, b.json().run_id);
    const pending = await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${a.json().run_id}`);
    assert.deepEqual(
      { ...(pending.json() as object), created_at: undefined },
      {
        id: a.json().run_id,
        org_id: ctx.soleil,
        period: PERIOD,
        status: 'en_cours',
        done: 0,
        total: 0,
        payslips: [],
        skipped: [],
        created_at: undefined,
        finished_at: null,
      },
    );
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    const first = await runToEnd(ctx, a.json().run_id);
    assert.equal(first.payslips.length, 3);

    // Validate the artist's only; compute again: it is kept, the two other drafts replaced.
    const artistDraft = first.payslips.find((p: { contract_id: string }) => p.contract_id === ids.artist).id;
    const validated = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payslip_ids: [artistDraft] });
    assert.equal(validated.statusCode, 200, validated.body);
    const second = await compute(ctx);
    assert.equal(second.status, 'termine');
    assert.equal(second.payslips.length, 2);
    assert.ok(second.skipped.some((s: { contract_id: string; reason: string }) => s.contract_id === ids.artist && s.reason === 'already_published'));
    const rows = await ctx.db.selectFrom('payslips').select(['id', 'status']).where('org_id', '=', ctx.soleil).where('period', '=', PERIOD).execute();
    assert.equal(rows.length, 3, 'the first drafts are gone, not kept beside the new ones');
    assert.deepEqual(
      rows.filter((r) => r.status === 'publie').map((r) => r.id),
      [artistDraft],
    );
  });

  it('should leave the previous drafts as they were when a run fails', async (t) => {
    const ctx = await setup(t);
    await month(ctx);
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    const first = await compute(ctx);
    const before = await ctx.db.selectFrom('payslips').select(['id', 'gross']).where('org_id', '=', ctx.soleil).orderBy('id').execute();
    // The database failing at the commit (not refusing one row: that contract would be skipped).
    await sql.raw(`create function public.test_fail_drafts() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`).execute(ctx.db);
    await sql.raw('create trigger test_fail_drafts before insert on public.payslips for each row execute function public.test_fail_drafts()').execute(ctx.db);
    const failed = await compute(ctx);
    await sql.raw('drop trigger test_fail_drafts on public.payslips').execute(ctx.db);
    assert.equal(failed.status, 'echoue');
    assert.match(failed.message, /brouillons précédents sont inchangés/);
    assert.doesNotMatch(failed.message, /disk|trigger|SQL/i);
    // Failed at the first error, its job with it: the same computation would fail again.
    assert.deepEqual(await ctx.db.selectFrom('jobs').select(['status', 'attempts']).where('subject_id', '=', failed.id).executeTakeFirstOrThrow(), {
      status: 'failed',
      attempts: 1,
    });
    assert.deepEqual(await ctx.db.selectFrom('payslips').select(['id', 'gross']).where('org_id', '=', ctx.soleil).orderBy('id').execute(), before);
    assert.equal(first.payslips.length, before.length);
    // Retried by staff once the cause is gone: the same run computed again, its drafts replacing the first.
    const job = await ctx.db.selectFrom('jobs').select('id').where('subject_id', '=', failed.id).executeTakeFirstOrThrow();
    // The run reads `echoue` until its job is claimed again: wait for the job's outcome, not the run's status.
    const outcome = new Promise<string>((resolve) =>
      ctx.app.payroll.worker.onOutcome((event) => String(event.id) === String(job.id) && resolve(event.outcome)),
    );
    const retried = await ctx.call(ctx.staff, 'POST', `/api/staff/jobs/${job.id}/retry`);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(await outcome, 'done');
    const again = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${failed.id}`)).json();
    assert.equal(again.status, 'termine', JSON.stringify(again));
    assert.equal(again.payslips.length, before.length);
  });

  it('should take up a run whose instance died, and give up with a reason after three interruptions', async (t) => {
    const ctx = await setup(t);
    await month(ctx);
    // A run whose job an instance that died had claimed: its lease has expired.
    const claimed = async (orgId: string, attempts: number) =>
      (
        await sql<{ id: string }>`with run as (insert into public.payroll_runs (org_id, period) values (${orgId}, ${PERIOD}) returning id, org_id)
        insert into public.jobs (kind, payload, org_id, subject_type, subject_id, max_attempts, status, attempts, lease_owner, lease_until)
        select 'payroll.run', jsonb_build_object('run_id', id), org_id, 'payroll_run', id::text, 3, 'running', ${attempts}, 'dead-instance', now() - interval '1 minute'
          from run returning subject_id as id`.execute(ctx.db)
      ).rows[0]!;
    const orphan = await claimed(ctx.soleil, 1);
    const hopeless = await claimed(ctx.lumiere, 3);
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    const resumed = await runToEnd(ctx, orphan.id);
    assert.equal(resumed.status, 'termine', JSON.stringify(resumed));
    assert.equal(resumed.payslips.length, 3);
    const abandoned = await runToEnd(ctx, hopeless.id);
    assert.equal(abandoned.status, 'echoue');
    assert.equal(abandoned.message, 'Le calcul a été interrompu 3 fois (arrêt du serveur) sans aboutir : relancez-le.');
    // The job failed with it, in the same transaction; the resumed one is done.
    const jobs = await ctx.db.selectFrom('jobs').select(['subject_id', 'status', 'attempts']).orderBy('id').execute();
    assert.deepEqual(jobs, [
      { subject_id: orphan.id, status: 'done', attempts: 2 },
      { subject_id: hopeless.id, status: 'failed', attempts: 4 },
    ]);
  });

  it('should let two instances share the runs and never write two sets of drafts', async (t) => {
    const ctx = await setup(t);
    await month(ctx);
    const second = await build(t, { database: ctx.app.database as never, app: { payrollWorker: true, payrollPollMs: 20 } });
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    for (let round = 0; round < 3; round += 1) {
      const [a, b] = await Promise.all([
        ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD }),
        second.app.inject({
          method: 'POST',
          url: '/api/staff/paie/calcul',
          headers: { cookie: ctx.staff.cookie },
          payload: { org_id: ctx.soleil, period: PERIOD },
        }),
      ]);
      assert.equal(a.json().run_id, b.json().run_id);
      const run = await runToEnd(ctx, a.json().run_id);
      assert.equal(run.status, 'termine');
      const drafts = await ctx.db.selectFrom('payslips').select('id').where('org_id', '=', ctx.soleil).where('status', '=', 'brouillon').execute();
      assert.deepEqual(drafts.map((d) => d.id).sort(), run.payslips.map((p: { id: string }) => p.id).sort());
    }
  });

  it('should answer the documented 400s, 403, 404 and 413, never a 500', async (t) => {
    const ctx = await setup(t);
    const post = (body: object) => ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', body);
    assert.deepEqual((await post({ period: PERIOD })).json().error, 'missing_org_id');
    assert.deepEqual((await post({ org_id: '6f1c2d3e-0000-4000-8000-000000000000', period: PERIOD })).json().error, 'org_not_found');
    assert.deepEqual((await post({ org_id: 'nope', period: PERIOD })).json().error, 'org_not_found');
    for (const period of ['2027-13', '27-03', '2027-3', 202703, '', null]) {
      const res = await post({ org_id: ctx.soleil, period });
      assert.equal(res.statusCode, 400, `${period}: ${res.body}`);
      assert.match(res.json().error, /^(invalid|missing)_period$/);
    }
    assert.equal((await ctx.call(ctx.agent, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD })).statusCode, 403);
    assert.equal((await ctx.call(ctx.agent, 'GET', '/api/staff/paie/runs/6f1c2d3e-0000-4000-8000-000000000000')).statusCode, 403);
    assert.equal((await ctx.call(ctx.staff, 'GET', '/api/staff/paie/runs/6f1c2d3e-0000-4000-8000-000000000000')).statusCode, 404);
    assert.equal((await ctx.call(ctx.staff, 'GET', '/api/staff/paie/runs/nope')).statusCode, 404);
    const big = await post({ org_id: ctx.soleil, period: PERIOD, pad: 'x'.repeat(70 * 1024) });
    assert.equal(big.statusCode, 413);
    assert.equal((await ctx.db.selectFrom('payroll_runs').select('id').execute()).length, 0);
  });
});

describe('POST /api/staff/paie/valider', () => {
  it('should publish the drafts and make the contribution call of their lines, then render the bulletins', async (t) => {
    const ctx = await setup(t);
    await month(ctx);
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    const run = await compute(ctx);
    const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD });
    assert.equal(res.statusCode, 200, res.body);
    const { published, contribution_call_id } = res.json();
    assert.deepEqual([...published].sort(), run.payslips.map((p: { id: string }) => p.id).sort());

    // The call: one line per organism, the sums of the lines' two shares.
    const details = await Promise.all(published.map(async (id: string) => (await ctx.call(ctx.staff, 'GET', `/api/staff/payslips/${id}`)).json()));
    const expected = new Map<string, Money[]>();
    for (const p of details)
      for (const l of p.lines as PayslipLine[]) expected.set(l.organism, [...(expected.get(l.organism) ?? []), l.employee_amount, l.employer_amount]);
    const calls = (await ctx.call(ctx.compta, 'GET', `/api/cotisations?period=${PERIOD}`)).json().items;
    assert.equal(calls.length, 1);
    assert.equal(calls[0].id, contribution_call_id);
    assert.equal(calls[0].due_date, '2027-04-15');
    assert.deepEqual(
      Object.fromEntries(calls[0].lines.map((l: { organism: string; amount: string }) => [l.organism, l.amount])),
      Object.fromEntries([...expected].map(([organism, amounts]) => [organism, sumMoney(amounts)])),
    );
    assert.deepEqual(Object.keys(Object.fromEntries(calls[0].lines.map((l: { organism: string }) => [l.organism, 1]))).sort(), [
      'AFDAS',
      'AUDIENS',
      'CONGES_SPECTACLES',
      'FRANCE_TRAVAIL',
      'URSSAF',
    ]);
    assert.equal(calls[0].total, sumMoney(calls[0].lines.map((l: { amount: Money }) => l.amount)));

    // Published: seen by the organization, with their bulletins once their jobs rendered them.
    assert.equal(await ctx.app.jobs.worker.runDue(), 3);
    const listed = (await ctx.call(ctx.admin, 'GET', `/api/payslips?period=${PERIOD}`)).json().items;
    assert.equal(listed.length, 3);
    assert.ok(listed.every((p: { has_pdf: boolean; status: string }) => p.has_pdf && p.status === 'publie'));
    const one = (await ctx.call(ctx.admin, 'GET', `/api/payslips/${published[0]}`)).json();
    assert.equal(one.situation, undefined);
    assert.ok(one.lines.length > 5);
    assert.equal((await ctx.call(ctx.admin, 'GET', `/api/payslips/${published[0]}/pdf-url`)).statusCode, 200);
    // Payable: Hélène and Marc have an IBAN, Zoé has none.
    assert.equal((await ctx.available(`?period=${PERIOD}`)).length, 2);
  });

  it('should refuse payslips that are not drafts of the period with 409 payslip_not_draft, changing nothing', async (t) => {
    const ctx = await setup(t);
    await month(ctx);
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    const run = await compute(ctx);
    const typed = await ctx.payslip(ctx.soleil, ctx.zoe, '2027-02', '1500.00');
    const draft = run.payslips[0].id;
    const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payslip_ids: [draft, typed] });
    assert.equal(res.statusCode, 409);
    assert.deepEqual({ error: res.json().error, payslip_ids: res.json().payslip_ids }, { error: 'payslip_not_draft', payslip_ids: [typed] });
    const other = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.lumiere, period: PERIOD, payslip_ids: [draft] });
    assert.deepEqual(other.json().payslip_ids, [draft]);
    const none = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.lumiere, period: PERIOD });
    assert.deepEqual({ status: none.statusCode, error: none.json().error, ids: none.json().payslip_ids }, { status: 409, error: 'payslip_not_draft', ids: [] });
    assert.equal((await ctx.db.selectFrom('payslips').select('id').where('status', '=', 'brouillon').execute()).length, 3);
    assert.equal((await ctx.db.selectFrom('contribution_calls').select('id').execute()).length, 0);
    const bad = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payslip_ids: 'all' });
    assert.equal(bad.json().error, 'invalid_payslip_ids');
  });
});

describe('a run across a restart', () => {
  it('should hand its run back when the server stops, and be finished by the next one', async (t) => {
    const ctx = await setup(t);
    await month(ctx);
    // Chunks of one payslip, so that the stop comes between two.
    const first = await build(t, { database: ctx.app.database as never, app: { payrollWorker: false } });
    const quiet = { info() {}, warn() {}, error() {} };
    const runner = new JobWorker({ db: first.app.db, log: quiet, pollMs: 20 });
    definePayrollRun(runner, { ctx: { db: first.app.db, mail: first.app.mail }, log: quiet, chunkSize: 1 });
    const started = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
    const runId = started.json().run_id;
    const outcomes: string[] = [];
    runner.onOutcome((event) => outcomes.push(event.outcome));
    runner.start();
    for (let i = 0; i < 600; i += 1) {
      const row = await ctx.db.selectFrom('payroll_runs').select(['done']).where('id', '=', runId).executeTakeFirstOrThrow();
      if (row.done >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await runner.stop();
    // The run handed itself back after its chunk: its job claimable at once, the attempt not counted.
    assert.deepEqual(outcomes, ['handed_back']);
    assert.deepEqual(await ctx.db.selectFrom('jobs').select(['status', 'lease_owner', 'attempts']).where('subject_id', '=', runId).executeTakeFirstOrThrow(), {
      status: 'pending',
      lease_owner: null,
      attempts: 0,
    });
    assert.deepEqual(await ctx.db.selectFrom('payroll_runs').select(['status', 'done']).where('id', '=', runId).executeTakeFirstOrThrow(), {
      status: 'en_cours',
      done: 0,
    });
    // The next server takes it up at once.
    ctx.app.payroll.worker.start();
    t.after(() => ctx.app.payroll.worker.stop());
    const run = await runToEnd(ctx, runId);
    assert.equal(run.status, 'termine');
    assert.equal(run.payslips.length, 3);
  });
});
