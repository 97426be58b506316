/**
 * One contribution call per organization and month, revised, never duplicated: the month's
 * calls always add up to what its published payslips owe (organism by organism), through
 * validations, cancellations, recomputations, typed payslips and payments; a paid call is
 * followed by a numbered complementary call naming the first; the e-mails say whom to pay,
 * how, and with which reference.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { usingPostgres } from '../helper.ts';
import { outbox } from '../support/fixtures.ts';
import { setup } from '../payslips/support.ts';
import { contributionLines } from '../../src/payroll/payroll.service.ts';
import type { PayslipLine } from '../../src/payroll/compute.ts';
import { sumMoney, type Money } from '../../src/money/money.ts';

const PERIOD = '2027-03';
const NBSP = '\u00a0';

type Ctx = Awaited<ReturnType<typeof setup>>;
interface Call {
  id: string;
  number: string;
  origin: string;
  first_call_number: string | null;
  total: string;
  status: string;
  lines: Array<{ organism: string; amount: string }>;
  payslips_counted_in: number;
  payslips_counted_out: number;
}

async function start(t: Parameters<typeof setup>[0]) {
  const ctx = await setup(t);
  ctx.app.payroll.worker.start();
  t.after(() => ctx.app.payroll.worker.stop());
  return ctx;
}

/** An artist and a submitted CDDU of `dates` performances at `amount` each in the month. */
async function artistContract(ctx: Ctx, first: string, last: string, dates: number, amount: string): Promise<{ employee: string; contract: string }> {
  const employee = await ctx.employee(ctx.agent, first, last);
  await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${employee}`, { category: 'artiste' });
  const created = await ctx.call(ctx.agent, 'POST', '/api/contrats', {
    employee_id: employee,
    kind: 'CDDU',
    job_title: 'Comédien',
    show_title: 'Le Songe',
    idcc: '3090',
    start_date: `${PERIOD}-01`,
    end_date: `${PERIOD}-31`,
    dates: Array.from({ length: dates }, (_, i) => ({ date: `${PERIOD}-${String(i + 2).padStart(2, '0')}`, nature: 'representation', quantity: 1, amount })),
  });
  assert.equal(created.statusCode, 201, created.body);
  const contract = created.json().id as string;
  assert.equal((await ctx.call(ctx.agent, 'POST', `/api/contrats/${contract}/submit`)).statusCode, 200);
  return { employee, contract };
}

/** Computes the month; its drafts by contract. */
async function compute(ctx: Ctx): Promise<Map<string, string>> {
  const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
  assert.equal(res.statusCode, 202, res.body);
  for (;;) {
    const run = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${res.json().run_id}`)).json();
    if (run.status === 'termine') return new Map(run.payslips.map((p: { contract_id: string; id: string }) => [p.contract_id, p.id]));
    assert.equal(run.status, 'en_cours', JSON.stringify(run));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function validate(ctx: Ctx, payslipIds?: string[]) {
  const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', {
    org_id: ctx.soleil,
    period: PERIOD,
    ...(payslipIds ? { payslip_ids: payslipIds } : {}),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { published: string[]; contribution_call_id: string | null };
}

async function cancel(ctx: Ctx, payslipId: string) {
  const res = await ctx.call(ctx.staff, 'POST', `/api/staff/payslips/${payslipId}/cancel`);
  assert.equal(res.statusCode, 200, res.body);
}

async function calls(ctx: Ctx): Promise<Call[]> {
  const res = await ctx.call(ctx.compta, 'GET', `/api/cotisations?period=${PERIOD}`);
  assert.equal(res.statusCode, 200, res.body);
  // Oldest first: the number series gives the order they were made in.
  return (res.json().items as Call[]).sort((a, b) => a.number.localeCompare(b.number));
}

async function pay(ctx: Ctx, id: string) {
  const res = await ctx.call(ctx.staff, 'POST', `/api/staff/cotisations/${id}/paye`, {});
  assert.equal(res.statusCode, 200, res.body);
}

const byOrganism = (lines: ReadonlyArray<{ organism: string; amount: string }>) => {
  const sums = new Map<string, Money[]>();
  for (const l of lines) sums.set(l.organism, [...(sums.get(l.organism) ?? []), l.amount as Money]);
  return Object.fromEntries(
    [...sums]
      .map(([o, a]) => [o, sumMoney(a)])
      .filter(([, a]) => a !== '0.00')
      .sort(),
  );
};

/** What the month's published payslips owe, by organism (the payroll's own function), and the calls' sums. */
async function owedAndCalled(ctx: Ctx) {
  const published = await ctx.db
    .selectFrom('payslips')
    .select('lines')
    .where('org_id', '=', ctx.soleil)
    .where('period', '=', PERIOD)
    .where('status', '=', 'publie')
    .execute();
  const owed = byOrganism(contributionLines(published.map((p) => (p.lines ?? []) as unknown as PayslipLine[])));
  const monthCalls = (await calls(ctx)).filter((c) => c.origin === 'paie');
  return {
    owed,
    called: byOrganism(monthCalls.flatMap((c) => c.lines)),
    owedTotal: sumMoney(Object.values(owed) as Money[]),
    calledTotal: sumMoney(monthCalls.map((c) => c.total as Money)),
    calls: monthCalls,
  };
}

async function assertInvariant(ctx: Ctx, step: string) {
  const { owed, called, owedTotal, calledTotal, calls: monthCalls } = await owedAndCalled(ctx);
  assert.deepEqual(called, owed, `per organism, after ${step}`);
  assert.equal(calledTotal, owedTotal, `total, after ${step}`);
  for (const c of monthCalls) assert.equal(c.total, sumMoney(c.lines.map((l) => l.amount as Money)), `call ${c.number}: total of its lines`);
  assert.ok(monthCalls.filter((c) => c.status === 'a_payer').length <= 1, `one unpaid call at most, after ${step}`);
}

describe("the month's contribution call", () => {
  it('should stay one call equal to what is owed: validate Ana, validate Carl, cancel Ana, recompute, validate', async (t) => {
    const ctx = await start(t);
    const ana = await artistContract(ctx, 'Ana', 'Martin', 3, '1200');
    const carl = await artistContract(ctx, 'Carl', 'Petit', 2, '900');
    const drafts = await compute(ctx);

    const first = await validate(ctx, [drafts.get(ana.contract)!]);
    await assertInvariant(ctx, 'validate Ana');
    const second = await validate(ctx, [drafts.get(carl.contract)!]);
    assert.equal(second.contribution_call_id, first.contribution_call_id, 'the same call, revised');
    await assertInvariant(ctx, 'validate Carl');
    await cancel(ctx, drafts.get(ana.contract)!);
    await assertInvariant(ctx, 'cancel Ana');
    const again = await compute(ctx);
    assert.deepEqual([...again.keys()], [ana.contract], "Ana's contract computed again");
    const third = await validate(ctx);
    assert.equal(third.contribution_call_id, first.contribution_call_id);
    await assertInvariant(ctx, 'validate Ana again');

    const [call, ...others] = await calls(ctx);
    assert.deepEqual(others, [], 'never a second call while the first is unpaid');
    assert.match(call!.number, /^AC-\d{4}-000001$/);
    assert.equal(call!.first_call_number, null);
    assert.deepEqual([call!.payslips_counted_in, call!.payslips_counted_out], [2, 0], "Carl's and Ana's second payslip; the cancelled one taken out");
    const { owedTotal } = await owedAndCalled(ctx);
    assert.equal(call!.total, owedTotal);
    const events = await ctx.db.selectFrom('module_events').select(['action', 'details']).where('subject_id', '=', call!.id).orderBy('id').execute();
    assert.deepEqual(
      events.map((e) => e.action),
      ['contribution_call.created', 'contribution_call.revised', 'contribution_call.revised', 'contribution_call.revised'],
    );
    assert.deepEqual(
      events.map((e) => [(e.details as { payslips_added: number }).payslips_added, (e.details as { payslips_removed: number }).payslips_removed]),
      [
        [1, 0],
        [1, 0],
        [0, 1],
        [1, 0],
      ],
    );
  });

  it('should follow a paid call with a complementary call naming it, and a credit when a paid payslip is cancelled', async (t) => {
    const ctx = await start(t);
    const ana = await artistContract(ctx, 'Ana', 'Martin', 2, '900');
    const carl = await artistContract(ctx, 'Carl', 'Petit', 3, '1200');
    const drafts = await compute(ctx);
    const first = (await validate(ctx, [drafts.get(ana.contract)!])).contribution_call_id!;
    await pay(ctx, first);

    const second = (await validate(ctx, [drafts.get(carl.contract)!])).contribution_call_id!;
    assert.notEqual(second, first, 'a paid call is never changed');
    await assertInvariant(ctx, 'validate Carl after payment');
    let [paid, complement] = await calls(ctx);
    assert.equal(paid!.status, 'paye');
    assert.equal(complement!.first_call_number, paid!.number);
    assert.equal(Number(complement!.number.slice(-6)), Number(paid!.number.slice(-6)) + 1, 'the next number of the series');
    const carlPayslip = await ctx.db.selectFrom('payslips').select('lines').where('id', '=', drafts.get(carl.contract)!).executeTakeFirstOrThrow();
    assert.equal(complement!.total, sumMoney(contributionLines([(carlPayslip.lines ?? []) as unknown as PayslipLine[]]).map((l) => l.amount)));

    // Ana's payslip was paid in the first call: cancelling it counts it out in the unpaid one.
    await cancel(ctx, drafts.get(ana.contract)!);
    await assertInvariant(ctx, 'cancel Ana after payment');
    [paid, complement] = await calls(ctx);
    assert.deepEqual([complement!.payslips_counted_in, complement!.payslips_counted_out], [1, 1]);

    // Paid as well, then Carl cancelled: a credit ("avoir de cotisations") naming the first call.
    await pay(ctx, complement!.id);
    await cancel(ctx, drafts.get(carl.contract)!);
    await assertInvariant(ctx, 'cancel Carl after both payments');
    const all = await calls(ctx);
    assert.equal(all.length, 3);
    const credit = all[2]!;
    assert.equal(credit.first_call_number, paid!.number);
    assert.ok(credit.total.startsWith('-'), credit.total);
    assert.equal(sumMoney(all.map((c) => c.total as Money)), '0.00', 'nothing is owed any more, nothing called');

    // The staff page and the client's page tell them apart.
    const page = (await ctx.call(ctx.staff, 'GET', '/staff/cotisations')).body;
    for (const c of all) assert.ok(page.includes(c.number), c.number);
    assert.ok(page.includes(`Avoir de ${paid!.number}`), 'the credit on the staff page');
    assert.ok(page.includes(`Complémentaire de ${paid!.number}`), 'the complementary call on the staff page');
    const factures = (await ctx.call(ctx.compta, 'GET', '/factures')).body;
    assert.ok(factures.includes(credit.number), 'the credit on the client page');
  });

  it('should call a typed payslip with its contributions, and revise the call when it is cancelled', async (t) => {
    const ctx = await setup(t);
    const typed = await ctx.call(ctx.staff, 'POST', '/api/staff/payslips', {
      org_id: ctx.soleil,
      employee_id: ctx.zoe,
      period: PERIOD,
      gross: '2000',
      net_to_pay: '1550',
      contributions: [
        { organism: 'URSSAF', employee_amount: '250.10', employer_amount: '600.25' },
        { organism: 'AUDIENS', employee_amount: 80, employer_amount: '120.5' },
      ],
    });
    assert.equal(typed.statusCode, 201, typed.body);
    assert.deepEqual([typed.json().employee_contributions, typed.json().employer_contributions], ['330.10', '720.75']);
    let [call] = await calls(ctx);
    assert.ok(call, 'a month of typed payslips is called');
    assert.deepEqual(byOrganism(call.lines), { AUDIENS: '200.50', URSSAF: '850.35' });
    assert.equal(call.total, '1050.85');
    assert.equal(call.payslips_counted_in, 1);
    await assertInvariant(ctx, 'typed payslip');

    // A payslip typed without contributions owes nothing: no call of nothing.
    await ctx.payslip(ctx.soleil, ctx.marc, '2027-02', '1000.00');
    assert.deepEqual((await ctx.call(ctx.compta, 'GET', '/api/cotisations?period=2027-02')).json().items, []);

    await cancel(ctx, typed.json().id);
    [call] = await calls(ctx);
    assert.deepEqual([call!.total, call!.lines, call!.payslips_counted_in], ['0.00', [], 0]);
    await assertInvariant(ctx, 'typed payslip cancelled');

    const bad = await ctx.call(ctx.staff, 'POST', '/api/staff/payslips', {
      org_id: ctx.soleil,
      employee_id: ctx.marc,
      period: PERIOD,
      gross: '10',
      net_to_pay: '5',
      contributions: [{ organism: 'URSSAF', employer_amount: '-3' }],
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_amount');
    const twice = await ctx.call(ctx.staff, 'POST', '/api/staff/payslips', {
      org_id: ctx.soleil,
      employee_id: ctx.marc,
      period: PERIOD,
      gross: '10',
      net_to_pay: '5',
      contributions: [{ organism: 'URSSAF' }, { organism: 'URSSAF' }],
    });
    assert.deepEqual([twice.statusCode, twice.json().error], [400, 'invalid_organism']);
  });

  it('should e-mail whom to pay, the amount, the due date, the reference and the account; and a revision to those already told', async (t) => {
    const ctx = await setup(t);
    await ctx.call(ctx.staff, 'PATCH', `/api/staff/orgs/${ctx.soleil}`, { email_notifs: ['compta@soleil.example'] });
    const typed = (zoeOrMarc: string, urssaf: string) =>
      ctx.call(ctx.staff, 'POST', '/api/staff/payslips', {
        org_id: ctx.soleil,
        employee_id: zoeOrMarc,
        period: PERIOD,
        gross: '2000',
        net_to_pay: '1500',
        contributions: [
          { organism: 'URSSAF', employer_amount: urssaf },
          { organism: 'CONGES_SPECTACLES', employer_amount: '100' },
        ],
      });
    assert.equal((await typed(ctx.zoe, '1234.5')).statusCode, 201);
    const [call] = await calls(ctx);
    const notified = await ctx.call(ctx.staff, 'POST', `/api/staff/cotisations/${call!.id}/notifier`);
    assert.equal(notified.statusCode, 200, notified.body);
    const mails = (await outbox(ctx.db)).filter((m) => m.kind.startsWith('contribution_call'));
    assert.equal(mails.length, 1);
    const mail = mails[0]!;
    assert.equal(mail.subject, `Appel de cotisations ${call!.number} de mars 2027 : 1${NBSP}334,50${NBSP}€`);
    const text = mail.text_body;
    for (const expected of [
      `Odentas Paie collecte les cotisations de vos salariés pour votre compte et les reverse lui-même à chaque organisme (Urssaf, Congés Spectacles) : vous ne payez pas les organismes vous-même.`,
      `Merci de régler 1${NBSP}334,50${NBSP}€ par virement à Odentas Paie au plus tard le 15/04/2027, en indiquant la référence ${call!.number} dans le libellé du virement.`,
      'Bénéficiaire : Odentas Paie',
      'IBAN : FR76 3000 4000 0312 3456 7890 143',
      'BIC : BNPAFRPP',
      `Montant : 1${NBSP}334,50${NBSP}€`,
      `Référence du virement : ${call!.number}`,
      'Échéance : 15/04/2027',
    ])
      assert.ok(text.includes(expected), `${expected}\n---\n${text}`);
    assert.ok(mail.html_body.includes('FR76 3000 4000 0312 3456 7890 143'));

    // Told of the call, the organization is told of its new total when a payslip joins it.
    assert.equal((await typed(ctx.marc, '200')).statusCode, 201);
    const revised = (await outbox(ctx.db)).filter((m) => m.kind === 'contribution_call_revised');
    assert.equal(revised.length, 1);
    assert.equal(revised[0]!.subject, `Appel de cotisations ${call!.number} révisé : 1${NBSP}634,50${NBSP}€`);
    assert.ok(
      revised[0]!.text_body.includes(
        `L'appel de cotisations ${call!.number} de mars 2027 pour Théâtre du Soleil a été révisé (1 bulletin publié) : 1${NBSP}634,50${NBSP}€ à régler au plus tard le 15/04/2027, au lieu de 1${NBSP}334,50${NBSP}€.`,
      ),
      revised[0]!.text_body,
    );
    assert.ok(revised[0]!.text_body.includes(`Référence du virement : ${call!.number}`));
  });

  it('should not send a call to pay without the account to pay to (409 operator_account_missing)', async (t) => {
    const ctx = await setup(t, {});
    await ctx.call(ctx.staff, 'PATCH', `/api/staff/orgs/${ctx.soleil}`, { email_notifs: ['compta@soleil.example'] });
    await ctx.call(ctx.staff, 'POST', '/api/staff/payslips', {
      org_id: ctx.soleil,
      employee_id: ctx.zoe,
      period: PERIOD,
      gross: '2000',
      net_to_pay: '1500',
      contributions: [{ organism: 'URSSAF', employer_amount: '10' }],
    });
    const [call] = await calls(ctx);
    const res = await ctx.call(ctx.staff, 'POST', `/api/staff/cotisations/${call!.id}/notifier`);
    assert.deepEqual([res.statusCode, res.json().error], [409, 'operator_account_missing']);
    assert.equal((await outbox(ctx.db)).filter((m) => m.kind.startsWith('contribution_call')).length, 0);
  });
});

describe("the month's contribution call under concurrency (PostgreSQL)", () => {
  it('should end with one call counting every payslip when validations, typed payslips and cancellations race', {
    skip: usingPostgres ? false : 'PGlite has one session: no two transactions run at once',
  }, async (t) => {
    const ctx = await start(t);
    const people = await Promise.all(
      [
        ['Ana', 'Martin'],
        ['Carl', 'Petit'],
        ['Inès', 'Roux'],
      ].map(([f, l], i) => artistContract(ctx, f!, l!, i + 1, '800')),
    );
    const drafts = await compute(ctx);
    const typedBody = (employee_id: string) => ({
      org_id: ctx.soleil,
      employee_id,
      period: PERIOD,
      gross: '1000',
      net_to_pay: '700',
      contributions: [{ organism: 'URSSAF', employer_amount: '321.09' }],
    });
    const results = await Promise.all([
      ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payslip_ids: [drafts.get(people[0]!.contract)!] }),
      ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payslip_ids: [drafts.get(people[1]!.contract)!] }),
      ctx.call(ctx.staff, 'POST', '/api/staff/payslips', typedBody(ctx.zoe)),
      ctx.call(ctx.staff, 'POST', '/api/staff/payslips', typedBody(ctx.marc)),
    ]);
    assert.deepEqual(
      results.map((r) => r.statusCode),
      [200, 200, 201, 201],
      results.map((r) => r.body).join('\n'),
    );
    const monthCalls = await calls(ctx);
    assert.equal(monthCalls.length, 1, 'a single call: the first to hold the month made it, the others revised it');
    assert.equal(monthCalls[0]!.payslips_counted_in, 4);
    await assertInvariant(ctx, 'the race');

    // A validation racing cancellations of the payslips it does not publish.
    const [racing] = await Promise.all([
      ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payslip_ids: [drafts.get(people[2]!.contract)!] }),
      cancel(ctx, drafts.get(people[0]!.contract)!),
      cancel(ctx, results[2]!.json().id),
    ]);
    assert.equal(racing.statusCode, 200, racing.body);
    assert.equal((await calls(ctx)).length, 1);
    await assertInvariant(ctx, 'the second race');
  });

  it('should keep the calls equal to what is owed after each step of random validations, cancellations, recomputations and payments', {
    skip: usingPostgres ? false : 'runs in the PostgreSQL pass: dozens of payroll runs',
  }, async (t) => {
    const ctx = await start(t);
    const people = await Promise.all(
      [
        ['Ana', 'Martin', 3],
        ['Carl', 'Petit', 2],
        ['Inès', 'Roux', 1],
      ].map(([f, l, n]) => artistContract(ctx, f as string, l as string, n as number, '650')),
    );
    const contracts = people.map((p) => p.contract);
    type Step = { kind: 'compute' } | { kind: 'validate'; pick: number } | { kind: 'cancel'; pick: number } | { kind: 'pay' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.constant<Step>({ kind: 'compute' }),
      fc.nat(7).map<Step>((pick) => ({ kind: 'validate', pick })),
      fc.nat(7).map<Step>((pick) => ({ kind: 'cancel', pick })),
      fc.constant<Step>({ kind: 'pay' }),
    );
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 7 }), async (steps) => {
        // Each sequence starts from a month with nothing published (every call paid stays paid: the invariant spans them).
        round += 1;
        for (const [i, s] of steps.entries()) {
          const live = await ctx.db
            .selectFrom('payslips')
            .select(['id', 'status', 'period'])
            .where('org_id', '=', ctx.soleil)
            .where('period', '=', PERIOD)
            .execute();
          if (s.kind === 'compute') await compute(ctx);
          if (s.kind === 'validate') {
            const drafts = live.filter((p) => p.status === 'brouillon').map((p) => p.id);
            // An empty pick (bit mask 0) validates them all.
            const chosen = drafts.filter((_, j) => s.pick === 0 || (s.pick >> j) & 1);
            if (chosen.length > 0) await validate(ctx, chosen);
          }
          if (s.kind === 'cancel') {
            const published = live.filter((p) => p.status === 'publie');
            if (published.length > 0) await cancel(ctx, published[s.pick % published.length]!.id);
          }
          if (s.kind === 'pay') {
            const open = (await calls(ctx)).find((c) => c.status === 'a_payer' && c.origin === 'paie');
            if (open) await pay(ctx, open.id);
          }
          await assertInvariant(ctx, `round ${round}, step ${i + 1} (${JSON.stringify(s)}) of ${JSON.stringify(steps)}`);
        }
        // Contracts stay the same; the next sequence goes on from this month as it is.
        assert.equal(contracts.length, 3);
      }),
      { numRuns: 6, endOnFailure: true },
    );
  });
});
