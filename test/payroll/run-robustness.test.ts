/**
 * What a payroll run does with a contract it cannot pay: the other contracts are computed and
 * committed, the contract is skipped `not_computable` with its number and the figure at fault;
 * and what cannot be paid is refused where it is typed (dates, withholding rate, period, a CDDU
 * without category), with the module's 400 or 409.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { setup, OPERATOR_ENV } from '../payslips/support.ts';
import { definePayrollRun } from '../../src/payroll/runner.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { unstorableReason } from '../../src/payroll/draft-limits.ts';
import { listUnpayablePayslips } from '../../src/transfers/transfers.service.ts';
import { addMonths, payrollPeriodWindow } from '../../src/format/calendar.ts';
import { todayInFrance } from '../../src/format/french.ts';
import type { ComputedPayslip } from '../../src/payroll/compute.ts';
import type { Money } from '../../src/money/money.ts';

type Ctx = Awaited<ReturnType<typeof setup>>;

/** The current month: inside the months the service computes, whatever the day of the test. */
const PERIOD = todayInFrance().slice(0, 7);
const day = (n: number) => `${PERIOD}-${String(n).padStart(2, '0')}`;
const NBSP = '\u00a0';

const cddu = (employee_id: string, amounts: string[]) => ({
  employee_id,
  kind: 'CDDU',
  job_title: 'Régisseur',
  show_title: 'Le Songe',
  idcc: '3090',
  start_date: day(1),
  end_date: day(28),
  dates: amounts.map((amount, i) => ({ date: day(i + 1), nature: 'heures', quantity: 8, amount })),
});

async function created(ctx: Ctx, body: object): Promise<{ id: string; number: string }> {
  const res = await ctx.call(ctx.agent, 'POST', '/api/contrats', body);
  assert.equal(res.statusCode, 201, res.body);
  return { id: res.json().id, number: res.json().contract_number };
}

async function submitted(ctx: Ctx, body: object): Promise<{ id: string; number: string }> {
  const contract = await created(ctx, body);
  const res = await ctx.call(ctx.agent, 'POST', `/api/contrats/${contract.id}/submit`);
  assert.equal(res.statusCode, 200, res.body);
  return contract;
}

/** A contract as an old row holds it: its dates' amounts written straight into the table. */
async function withStoredAmounts(ctx: Ctx, employeeId: string, amounts: string[]) {
  const contract = await submitted(
    ctx,
    cddu(
      employeeId,
      amounts.map(() => '1'),
    ),
  );
  for (const [i, amount] of amounts.entries()) {
    await ctx.db
      .updateTable('contract_dates')
      .set({ amount })
      .where('contract_id', '=', contract.id)
      .where('date', '=', day(i + 1))
      .execute();
  }
  return contract;
}

/** Le Soleil (association, SVP, effectif 5), Marc a technician with one date at 250.00: the contract every run below still pays. */
async function base(t: Parameters<typeof setup>[0]) {
  const ctx = await setup(t, OPERATOR_ENV);
  const org = await ctx.call(ctx.staff, 'PATCH', `/api/staff/orgs/${ctx.soleil}`, { effectif: 5 });
  assert.equal(org.statusCode, 200, org.body);
  assert.equal((await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.marc}`, { category: 'technicien' })).statusCode, 200);
  const good = await submitted(ctx, cddu(ctx.marc, ['250']));
  const failures: unknown[] = [];
  const log = { info() {}, warn: (obj: object) => failures.push(obj), error: (obj: object) => failures.push(obj) };
  const runner = new JobWorker({ db: ctx.app.db, log, pollMs: 20 });
  definePayrollRun(runner, { ctx: { db: ctx.app.db, mail: ctx.app.mail }, log });
  runner.start();
  t.after(() => runner.stop());
  /** A new employee of this category. */
  const categorized = async (first: string, category: 'artiste' | 'technicien') => {
    const id = await ctx.employee(ctx.agent, first, 'Essai');
    const res = await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${id}`, { category });
    assert.equal(res.statusCode, 200, res.body);
    return id;
  };
  const compute = async () => {
    const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
    assert.equal(res.statusCode, 202, res.body);
    return runToEnd(ctx, res.json().run_id);
  };
  return { ...ctx, good, compute, categorized, failures };
}

/** Waits for the run's end, reading it as the page does (not a sleep of a guessed length: until it ends). */
async function runToEnd(ctx: Pick<Ctx, 'call' | 'staff'>, runId: string) {
  for (;;) {
    const run = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${runId}`)).json();
    if (run.status !== 'en_cours') return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Skip = { contract_id: string; reason: string; message: string };

describe('a payroll run with contracts it cannot pay', () => {
  it('should draft the other contracts and skip each one not_computable, naming its number and the figure at fault', async (t) => {
    const ctx = await base(t);
    // Each input below was accepted before and sank the whole run at the insert: a net below
    // zero (the table's check) or a figure past numeric(12,2). Old rows: written in the tables.
    const zero = await withStoredAmounts(ctx, await ctx.categorized('Zéro', 'technicien'), ['0.00']);
    const artist = await submitted(
      ctx,
      cddu(
        await ctx.categorized('Artiste', 'artiste'),
        Array.from({ length: 17 }, () => '1.00'),
      ),
    );
    const taxedId = await ctx.categorized('Taux', 'technicien');
    await ctx.db.updateTable('employees').set({ pas_rate: '97.00' }).where('id', '=', taxedId).execute();
    const taxed = await submitted(ctx, cddu(taxedId, ['200']));
    const huge = await withStoredAmounts(
      ctx,
      await ctx.categorized('Énorme', 'technicien'),
      Array.from({ length: 10 }, () => '999999999.99'),
    );
    const sepa = await withStoredAmounts(
      ctx,
      await ctx.categorized('Virement', 'technicien'),
      Array.from({ length: 3 }, () => '999999999.99'),
    );

    const run = await ctx.compute();
    assert.equal(run.status, 'termine', JSON.stringify(run));
    assert.deepEqual(ctx.failures, []);
    // The artist's 17.00 is paid now: an intermittent has no company health plan (law/spectacle),
    // whose 20.00 made the net negative.
    assert.deepEqual(
      new Map(run.payslips.map((p: { contract_id: string; gross: string }) => [p.contract_id, p.gross])),
      new Map([
        [ctx.good.id, '250.00'],
        [artist.id, '17.00'],
      ]),
    );
    const skipped = new Map((run.skipped as Skip[]).map((s) => [s.contract_id, s]));
    assert.deepEqual(
      [...skipped.values()].map((s) => s.reason),
      Array(4).fill('not_computable'),
    );
    const negativeNet = new RegExp(
      `^Contrat %s : le net à payer calculé \\(-\\d+,\\d{2}${NBSP}€\\) est négatif : cotisations et prélèvement à la source dépassent le brut de %g\\.`,
    );
    const expectNegative = (c: { id: string; number: string }, gross: string) =>
      assert.match(skipped.get(c.id)!.message, new RegExp(negativeNet.source.replace('%s', c.number).replace('%g', `${gross}${NBSP}€`)), c.number);
    assert.equal(
      skipped.get(zero.id)!.message,
      `Contrat ${zero.number} : le salaire brut calculé est nul : il n\u2019y a rien à payer. Vérifiez les montants des dates.`,
    );
    expectNegative(taxed, '200,00');
    assert.equal(
      skipped.get(huge.id)!.message,
      `Contrat ${huge.number} : le salaire brut (9${NBSP}999${NBSP}999${NBSP}999,90${NBSP}€) dépasse 999${NBSP}999${NBSP}999,99${NBSP}€, le plus grand montant d\u2019un bulletin.`,
    );
    assert.equal(
      skipped.get(sepa.id)!.message,
      `Contrat ${sepa.number} : le salaire brut (2${NBSP}999${NBSP}999${NBSP}999,97${NBSP}€) dépasse 999${NBSP}999${NBSP}999,99${NBSP}€, le plus grand montant d\u2019un bulletin.`,
    );
    const stored = await ctx.db.selectFrom('payslips').select(['contract_ids', 'status']).where('org_id', '=', ctx.soleil).execute();
    assert.deepEqual(stored.map((p) => p.contract_ids[0]).sort(), [ctx.good.id, artist.id].sort());
  });

  it('should skip, naming it, a draft the database refuses at the insert, and commit the others', async (t) => {
    const ctx = await base(t);
    const other = await submitted(ctx, cddu(await ctx.categorized('Refusé', 'technicien'), ['333']));
    // A rule of the table no figure check knows of: the database alone refuses this draft.
    await sql`alter table public.payslips add constraint test_refuses_333 check (gross <> 333.00)`.execute(ctx.db);
    const run = await ctx.compute();
    assert.equal(run.status, 'termine', JSON.stringify(run));
    assert.deepEqual(
      run.payslips.map((p: { contract_id: string }) => p.contract_id),
      [ctx.good.id],
    );
    assert.deepEqual(run.skipped, [
      {
        contract_id: other.id,
        reason: 'not_computable',
        message: `Contrat ${other.number} : la base de données a refusé ce bulletin (un de ses montants est hors des limites) : vérifiez les montants du contrat.`,
      },
    ]);
    const drafts = await ctx.db.selectFrom('payslips').select('id').where('org_id', '=', ctx.soleil).execute();
    assert.deepEqual(
      drafts.map((d) => d.id),
      [run.payslips[0].id],
    );
    const links = await ctx.db.selectFrom('payslip_contracts').select('contract_id').where('org_id', '=', ctx.soleil).execute();
    assert.deepEqual(links, [{ contract_id: ctx.good.id }]);
    await sql`alter table public.payslips drop constraint test_refuses_333`.execute(ctx.db);
  });

  it('should skip, naming it, a CDDU whose employee has no category (a row from before the rule)', async (t) => {
    const ctx = await base(t);
    const none = await created(ctx, cddu(await ctx.employee(ctx.agent, 'Sans', 'Catégorie'), ['200']));
    await ctx.db.updateTable('contracts').set({ status: 'a_signer' }).where('id', '=', none.id).execute();
    const run = await ctx.compute();
    assert.equal(run.payslips.length, 1);
    assert.deepEqual(run.skipped, [
      {
        contract_id: none.id,
        reason: 'not_computable',
        message: `Contrat ${none.number} : la catégorie du salarié (artiste ou technicien) n\u2019est pas renseignée : le régime des intermittents ne peut pas être choisi.`,
      },
    ]);
  });

  it('should end a waiting run of a period outside the months accepted with the range, computing nothing', async (t) => {
    const ctx = await base(t);
    const { first, last } = payrollPeriodWindow();
    // A run and its job as an old row holds them (the period rule came after).
    const rows = (
      await sql<{ id: string }>`with run as (insert into public.payroll_runs (org_id, period) values (${ctx.soleil}, '1900-01') returning id, org_id)
      insert into public.jobs (kind, payload, org_id, subject_type, subject_id, max_attempts)
      select 'payroll.run', jsonb_build_object('run_id', id), org_id, 'payroll_run', id::text, 3 from run returning subject_id as id`.execute(ctx.db)
    ).rows;
    const run = await runToEnd(ctx, rows[0]!.id);
    assert.equal(run.status, 'echoue');
    assert.match(run.message, /^La période janvier 1900 est hors de celles acceptées : de \S+ \d{4} à \S+ \d{4} \(trois ans en arrière, un an en avance\)\.$/);
    assert.ok(
      run.message.includes(`${first.slice(0, 4)} à`) && run.message.endsWith(`${last.slice(0, 4)} (trois ans en arrière, un an en avance).`),
      run.message,
    );
    assert.equal((await ctx.db.selectFrom('payslips').select('id').execute()).length, 0);
  });
});

describe('the figures a stored payslip must hold', () => {
  const payslip = (over: Partial<ComputedPayslip>): ComputedPayslip =>
    ({
      gross: '1000.00',
      employee_contributions: '200.00',
      employer_contributions: '400.00',
      net_before_tax: '800.00',
      net_taxable: '850.00',
      net_social: '800.00',
      pas_rate: '7.5',
      pas_amount: '63.75',
      net_to_pay: '736.25',
      employer_cost: '1400.00',
      lines: [],
      ...over,
    }) as ComputedPayslip;
  it('should accept a payslip within every limit and name the first figure past one', () => {
    assert.equal(unstorableReason(payslip({})), null);
    assert.equal(unstorableReason(payslip({ gross: '999999999.99' as Money, net_to_pay: '999999999.99' as Money })), null);
    assert.equal(
      unstorableReason(payslip({ net_to_pay: '1000000000.00' as Money, gross: '999999999.99' as Money })),
      `le net à payer calculé (1${NBSP}000${NBSP}000${NBSP}000,00${NBSP}€) dépasse 999${NBSP}999${NBSP}999,99${NBSP}€, le plus grand montant d\u2019un virement SEPA.`,
    );
    assert.equal(
      unstorableReason(payslip({ employer_cost: '10000000000.00' as Money })),
      `le coût employeur calculé (10${NBSP}000${NBSP}000${NBSP}000,00${NBSP}€) dépasse le plus grand montant enregistrable (9${NBSP}999${NBSP}999${NBSP}999,99${NBSP}€).`,
    );
    assert.equal(unstorableReason(payslip({ net_social: 'N.aN' as Money })), 'le modèle n\u2019a pas donné de montant pour le montant net social.');
    assert.equal(unstorableReason(payslip({ pas_rate: '1234.5' })), 'le taux de prélèvement à la source calculé (1234.5 %) n\u2019est pas un taux.');
    assert.equal(unstorableReason(payslip({ gross: '-1.00' as Money })), `le salaire brut calculé (-1,00${NBSP}€) est négatif.`);
  });
});

describe('what cannot be paid is refused where it is typed', () => {
  it('should refuse a CDDU date at zero, a date or a month past what a payslip carries, with 400 invalid_amount naming the field', async (t) => {
    const ctx = await setup(t);
    await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.marc}`, { category: 'technicien' });
    const post = (amounts: string[]) => ctx.call(ctx.agent, 'POST', '/api/contrats', cddu(ctx.marc, amounts));
    const zero = await post(['100', '0.00']);
    assert.equal(zero.statusCode, 400);
    assert.deepEqual(zero.json(), {
      error: 'invalid_amount',
      message: `Le montant du ${day(2).split('-').reverse().join('/')} doit être supérieur à zéro.`,
      field: 'dates[1].amount',
    });
    const one = await post(['1000000000.00']);
    assert.deepEqual([one.statusCode, one.json().error, one.json().field], [400, 'invalid_amount', 'dates[0].amount']);
    assert.equal(
      one.json().message,
      'Montant trop élevé : un bulletin de paie porte au plus 999 999 999,99 € (le plus grand montant d\u2019un virement SEPA).',
    );
    // Ten dates at the largest amount: the month's payslip could never be paid.
    const ten = await post(Array.from({ length: 10 }, () => '999999999.99'));
    assert.equal(ten.statusCode, 400);
    assert.equal(ten.json().error, 'invalid_amount');
    assert.equal(ten.json().field, 'dates');
    assert.match(
      ten.json().message,
      /^Les dates (de |d')\S+ \d{4} totalisent 9\u00a0999\u00a0999\u00a0999,90\u00a0€ : le bulletin d\u2019un mois porte au plus 999 999 999,99 € \(le plus grand montant d\u2019un virement SEPA\)\.$/,
    );
    const three = await post(['333333333.33', '333333333.33', '333333333.33']);
    assert.equal(three.statusCode, 201, three.body);
    const justOver = await post(['333333333.33', '333333333.33', '333333333.34']);
    assert.equal(justOver.statusCode, 400, 'one cent past 999 999 999,99 in the month');
    const monthly = await ctx.call(ctx.agent, 'POST', '/api/contrats', { employee_id: ctx.marc, kind: 'CDI', start_date: day(1), monthly_gross: '1000000000' });
    assert.deepEqual([monthly.statusCode, monthly.json().error, monthly.json().field], [400, 'invalid_amount', 'monthly_gross']);
    // The staff's edit of the dates answers the same.
    const draft = (await post(['100'])).json().id;
    const staffZero = await ctx.call(ctx.staff, 'PATCH', `/api/staff/contrats/${draft}/salaires-par-date`, {
      dates: [{ date: day(3), nature: 'service', quantity: 1, amount: 0 }],
    });
    assert.deepEqual([staffZero.statusCode, staffZero.json().error, staffZero.json().field], [400, 'invalid_amount', 'dates[0].amount']);
  });

  it("should refuse a personalised withholding rate above the neutral grid's highest (43 %) with 400 invalid_pas_rate", async (t) => {
    const ctx = await setup(t);
    const patch = (pas_rate: unknown) => ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.marc}`, { pas_rate });
    for (const bad of ['97', 97, '43.01', '100']) {
      const res = await patch(bad);
      assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
      assert.deepEqual(res.json(), {
        error: 'invalid_pas_rate',
        field: 'pas_rate',
        message:
          'Le taux personnalisé de prélèvement à la source (pas_rate) doit être un pourcentage de 0 à 43 (le taux le plus haut de la grille du taux neutre), deux décimales au plus.',
      });
    }
    for (const ok of ['43', '0', '7.5']) assert.equal((await patch(ok)).statusCode, 200, ok);
    const created = await ctx.call(ctx.agent, 'POST', '/api/salaries', { first_name: 'Ana', last_name: 'Souza', pas_rate: 97 });
    assert.equal(created.json().error, 'invalid_pas_rate');
    // A rate stored before the rule does not block another edit of the employee.
    await ctx.db.updateTable('employees').set({ pas_rate: '97.00' }).where('id', '=', ctx.marc).execute();
    assert.equal((await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.marc}`, { last_name: 'Dupond' })).statusCode, 200);
  });

  it('should hold one period rule for computing, validating, typing a payslip and calling contributions', async (t) => {
    const ctx = await setup(t);
    const { first, last } = payrollPeriodWindow();
    assert.equal(first, addMonths(PERIOD, -36));
    assert.equal(last, addMonths(PERIOD, 12));
    const writes = (period: string) => [
      ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period }),
      ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period }),
      ctx.call(ctx.staff, 'POST', '/api/staff/payslips', { org_id: ctx.soleil, employee_id: ctx.helene, period, gross: '10', net_to_pay: '1' }),
      ctx.call(ctx.staff, 'POST', '/api/staff/cotisations', {
        org_id: ctx.soleil,
        period,
        due_date: `${todayInFrance()}`,
        lines: [{ organism: 'URSSAF', amount: 1 }],
      }),
    ];
    for (const period of ['1900-01', '2999-12', addMonths(first, -1), addMonths(last, 1)]) {
      for (const res of await Promise.all(writes(period))) {
        assert.equal(res.statusCode, 400, `${period}: ${res.body}`);
        assert.equal(res.json().error, 'invalid_period');
        assert.equal(res.json().field, 'period');
        assert.ok(res.json().message.startsWith('La période '), res.body);
        assert.match(res.json().message, /est hors de celles acceptées : de \S+ \d{4} à \S+ \d{4} \(trois ans en arrière, un an en avance\)\.$/);
      }
    }
    // The edges are accepted (a run asked, nothing to validate, a payslip typed, a call made).
    for (const period of [first, last]) {
      const [run, validate, typed, call] = await Promise.all(writes(period));
      assert.deepEqual(
        [run!.statusCode, validate!.statusCode, validate!.json().error, typed!.statusCode, call!.statusCode],
        [202, 409, 'payslip_not_draft', 201, 201],
        period,
      );
    }
    // Lists still take any well-formed period: old documents stay listed.
    assert.equal((await ctx.call(ctx.compta, 'GET', '/api/payslips?period=1900-01')).statusCode, 200);
    assert.equal((await ctx.call(ctx.compta, 'GET', '/api/cotisations?period=2999-12')).statusCode, 200);
  });

  it('should refuse a CDDU submitted for signature while its employee has no category (409 naming the employee), and the form should ask it', async (t) => {
    const ctx = await setup(t);
    const contract = await created(ctx, cddu(ctx.helene, ['300']));
    const refused = await ctx.call(ctx.agent, 'POST', `/api/contrats/${contract.id}/submit`);
    assert.equal(refused.statusCode, 409);
    assert.deepEqual(refused.json(), {
      error: 'employee_category_missing',
      field: 'employee_id',
      message:
        "La catégorie d'Hélène Lefèvre (artiste ou technicien) n\u2019est pas renseignée : complétez sa fiche avant d\u2019envoyer ce CDDU à la signature (elle décide de ses cotisations).",
    });
    assert.equal((await ctx.db.selectFrom('contracts').select('status').where('id', '=', contract.id).executeTakeFirstOrThrow()).status, 'brouillon');
    await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.helene}`, { category: 'artiste' });
    assert.equal((await ctx.call(ctx.agent, 'POST', `/api/contrats/${contract.id}/submit`)).json().status, 'a_signer');
    // A CDI is paid as a permanent's whatever the category.
    const cdi = await created(ctx, { employee_id: ctx.zoe, kind: 'CDI', start_date: day(1), monthly_gross: '2000' });
    assert.equal((await ctx.call(ctx.agent, 'POST', `/api/contrats/${cdi.id}/submit`)).statusCode, 200);

    const form = await ctx.call(ctx.agent, 'GET', '/contrats/nouveau');
    assert.equal(form.statusCode, 200);
    const select = /<select id="new-employee-category"[^>]*>([\s\S]*?)<\/select>/.exec(form.body);
    assert.ok(select, 'the new-employee part asks the category');
    assert.deepEqual(
      [...select[1]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]),
      ['', 'artiste', 'technicien', 'permanent'],
    );
    assert.match(form.body, /<label for="new-employee-category">Catégorie <span class="required">\(obligatoire\)<\/span><\/label>/);
  });
});

describe('a net past what one SEPA transfer carries', () => {
  it('should never be offered to a batch, and an old batch holding one answers 409, not 500', async (t) => {
    const ctx = await setup(t, OPERATOR_ENV);
    // A computed payslip of before the checks: 3 dates at 999 999 999,99 gave this net.
    const big = await ctx.payslip(ctx.soleil, ctx.helene, PERIOD, '900000000.00');
    await ctx.db.updateTable('payslips').set({ gross: '2999999999.97', net_to_pay: '1499877835.51' }).where('id', '=', big).execute();
    assert.deepEqual(
      (await ctx.available()).map((p) => p.id),
      [],
    );
    const batch = await ctx.batch([big]);
    assert.deepEqual([batch.statusCode, batch.json().error, batch.json().payslip_ids], [409, 'payslip_unavailable', [big]]);
    // The staff's transfers page lists it with its reason.
    assert.deepEqual(
      (await listUnpayablePayslips(ctx.db, {})).map((p) => [p.id, p.reason]),
      [[big, 'net_too_large']],
    );

    // A batch made before its SEPA file was stored with it (none stored): its line holds the amount.
    const small = await ctx.payslip(ctx.soleil, ctx.marc, PERIOD, '100.00');
    const made = await ctx.batch([small]);
    assert.equal(made.statusCode, 201, made.body);
    await ctx.db.updateTable('transfer_items').set({ amount: '1499877835.51' }).where('payslip_id', '=', small).execute();
    await ctx.db.updateTable('transfers').set({ total: '1499877835.51', sepa_file_id: null }).where('id', '=', made.json().id).execute();
    const xml = await ctx.call(ctx.staff, 'GET', `/api/staff/virements/${made.json().id}/sepa.xml`);
    assert.equal(xml.statusCode, 409, xml.body);
    assert.deepEqual({ error: xml.json().error, payslip_ids: xml.json().payslip_ids }, { error: 'transfer_amount_too_large', payslip_ids: [small] });
  });
});
