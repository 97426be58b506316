/**
 * `/staff/paie` as the server renders it: the choice of organization and period,
 * a finished run's drafts with their figures and the contracts skipped with their reasons in
 * French, the contribution call made by the validation, the payslips of the month with their
 * actions; a draft's bulletin; and, on `/staff/virements`, the payslips that cannot be paid and
 * why, and a batch not marked executed before its execution date.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inDays, setup } from '../payslips/support.ts';
import { formatDateFr, formatEuros } from '../../src/format/french.ts';
import { unpayableReason } from '../../src/transfers/transfer.rules.ts';
import type { Money } from '../../src/money/money.ts';

const NBSP = '\u00a0';
const PERIOD = '2027-03';

type Ctx = Awaited<ReturnType<typeof setup>>;

const cells = (body: string, label: string) =>
  [...body.matchAll(new RegExp(`<td data-label="${label}"[^>]*>([\\s\\S]*?)</td>`, 'g'))].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/[ \t\n\r]+/g, ' ')
      .trim(),
  );
const tableOf = (body: string, id: string) => new RegExp(`<table[^>]* id="${id}"[\\s\\S]*?</table>`).exec(body)?.[0] ?? '';

async function contract(ctx: Ctx, body: object): Promise<string> {
  const created = await ctx.call(ctx.agent, 'POST', '/api/contrats', body);
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().id as string;
  assert.equal((await ctx.call(ctx.agent, 'POST', `/api/contrats/${id}/submit`)).statusCode, 200);
  return id;
}

/** Hélène an artist (CDDU, 3 dates: 1 000,00 €), Marc's CDD (skipped), the month computed by the runner. */
async function computed(t: Parameters<typeof setup>[0]) {
  const ctx = await setup(t);
  await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.helene}`, { category: 'artiste' });
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
  const cdd = await contract(ctx, {
    employee_id: ctx.marc,
    kind: 'CDD',
    job_title: 'Régisseur',
    start_date: '2027-03-01',
    end_date: '2027-03-31',
    monthly_gross: '2000',
  });
  ctx.app.payroll.worker.start();
  t.after(() => ctx.app.payroll.worker.stop());
  const started = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
  assert.equal(started.statusCode, 202, started.body);
  const runId = started.json().run_id as string;
  const until = Date.now() + 90_000;
  let run = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${runId}`)).json();
  while (run.status === 'en_cours' && Date.now() <= until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${runId}`)).json();
  }
  assert.equal(run.status, 'termine', JSON.stringify(run));
  const contractNumbers = new Map<string, string>();
  for (const id of [artist, cdd]) contractNumbers.set(id, (await ctx.call(ctx.agent, 'GET', `/api/contrats/${id}`)).json().contract_number);
  return { ...ctx, runId, run, artist, cdd, contractNumbers };
}

describe('GET /staff/paie', () => {
  it('should ask for an organization and a period, in the staff navigation, and refuse a client ADMIN (403)', async (t) => {
    const { call, staff, admin, soleil } = await setup(t);
    const res = await call(staff, 'GET', '/staff/paie');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h1>Calcul de la paie<\/h1>/);
    assert.match(res.body, /<a href="\/staff\/paie" aria-current="page">Paie<\/a>/);
    assert.match(res.body, /<option value="[^"]+">Théâtre du Soleil \(TDS001\)<\/option>/);
    assert.match(res.body, /id="choose-first"/);
    assert.match(res.body, /<script type="module" src="\/assets\/staff-paie.js"><\/script>/);
    assert.ok(!res.body.includes('id="run-start"'), 'nothing to compute before a choice');

    const refused = await call(admin, 'GET', `/staff/paie?org_id=${soleil}&period=03/2027`);
    assert.equal(refused.statusCode, 403);
    assert.ok(!(await call(admin, 'GET', '/contrats')).body.includes('href="/staff/paie"'), 'a client never sees the entry');

    const wrong = await call(staff, 'GET', `/staff/paie?org_id=${soleil}&period=mars`);
    assert.equal(wrong.statusCode, 400);
    assert.match(
      wrong.body,
      /<p id="paie-period-error" class="field-error">« mars » n&#39;est pas une période au format MM\/AAAA \(par exemple 03\/2027\)\.<\/p>/,
    );
    assert.match(wrong.body, /aria-invalid="true"/);
  });

  it("should show a finished run's drafts with their figures, the skipped contracts' reasons in French, then the contribution call", async (t) => {
    const ctx = await computed(t);
    const { call, staff, soleil, runId, run, cdd, contractNumbers } = ctx;
    const res = await call(staff, 'GET', `/staff/paie?org_id=${soleil}&period=03/2027&run=${runId}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /<h2 id="run-title" tabindex="-1">Calcul de mars 2027<\/h2>/);
    assert.match(res.body, /<progress id="run-progress" max="1" value="1" aria-describedby="run-progress-text">/);
    assert.match(res.body, /Calcul terminé : 1 contrat calculé\./);
    const drafts = tableOf(res.body, 'draft-table');
    const draft = run.payslips[0] as { id: string; gross: Money; net_before_tax: Money; net_to_pay: Money; employer_cost: Money };
    assert.deepEqual(cells(drafts, 'Salarié'), ['Hélène Lefèvre']);
    assert.deepEqual(cells(drafts, 'Brut'), [`1${NBSP}000,00${NBSP}€`]);
    assert.deepEqual(cells(drafts, 'Net avant impôt'), [formatEuros(draft.net_before_tax)]);
    assert.deepEqual(cells(drafts, 'Net payé'), [formatEuros(draft.net_to_pay)]);
    assert.deepEqual(cells(drafts, 'Coût employeur'), [formatEuros(draft.employer_cost)]);
    assert.ok(Number(draft.net_to_pay) > 0 && Number(draft.net_to_pay) < 1000 && Number(draft.employer_cost) > 1000, JSON.stringify(draft));
    assert.deepEqual(cells(drafts, 'Statut'), ['Brouillon']);
    assert.ok(drafts.includes(`data-bulletin="${draft.id}"`));
    assert.match(
      res.body,
      new RegExp(
        `<li data-contract-id="${cdd}" data-reason="cdd_not_computed"><strong>${contractNumbers.get(cdd)} \\(Marc Dupont\\)</strong> : CDD : les indemnités de fin de contrat demandent le contrat entier ; saisissez ce bulletin\\.</li>`,
      ),
    );
    assert.match(res.body, new RegExp(`<button type="button" class="button" id="validate" data-ids="${draft.id}" data-count="1">Valider le bulletin</button>`));
    assert.match(res.body, /<dialog id="confirm-validate"/);
    // The payment date the bulletins will print, asked with the confirmation: March 2027's last working day.
    assert.match(res.body, /<input id="validate-payment-date" name="payment_date" type="date" required value="2027-03-31"/);

    // The draft's bulletin, rendered on demand; a client may not have it.
    const pdf = await call(staff, 'GET', `/api/staff/paie/brouillons/${draft.id}/bulletin.pdf`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
    assert.match(
      String(pdf.headers['content-disposition']),
      /^attachment; filename="brouillon-bulletin-2027-03-Lefevre-Helene.pdf"; filename\*=UTF-8''brouillon-bulletin-2027-03-Lef%C3%A8vre-H%C3%A9l%C3%A8ne\.pdf$/,
    );
    assert.equal((await call(ctx.admin, 'GET', `/api/staff/paie/brouillons/${draft.id}/bulletin.pdf`)).statusCode, 403);

    const validated = await call(staff, 'POST', '/api/staff/paie/valider', { org_id: soleil, period: PERIOD, payslip_ids: [draft.id] });
    assert.equal(validated.statusCode, 200, validated.body);
    const callId = validated.json().contribution_call_id as string;
    const calls = (await call(ctx.compta, 'GET', '/api/cotisations')).json().items as Array<{ id: string; number: string; total: Money }>;
    const made = calls.find((c) => c.id === callId)!;
    const after = await call(staff, 'GET', `/staff/paie?org_id=${soleil}&period=03/2027&run=${runId}&appel=${callId}`);
    assert.match(
      after.body,
      new RegExp(
        `Appel de cotisations ${made.number} de mars 2027 pour Théâtre du Soleil \\(Appel du mois, 1 bulletin\\) : total <strong>${formatEuros(made.total)}</strong>, à payer au plus tard le <strong>15/04/2027</strong>\\.`,
      ),
    );
    assert.match(after.body, new RegExp(`<a href="/staff/cotisations\\?org_id=${soleil}" id="call-link">Voir les appels de cotisations</a>`));
    assert.deepEqual(cells(tableOf(after.body, 'draft-table'), 'Statut'), ['Publié']);
    assert.ok(!after.body.includes('id="validate"'), 'nothing left to validate');
    // Published: among the month's payslips, and no longer a draft's bulletin.
    assert.deepEqual(cells(tableOf(after.body, 'payslip-table'), 'Origine'), ['Calculé']);
    assert.equal((await call(staff, 'GET', `/api/staff/paie/brouillons/${draft.id}/bulletin.pdf`)).statusCode, 404);
  });

  it("should show the month's drafts and Valider without ?run, then the complementary payslip of an avenant beside its original, organisms and transfers in words", async (t) => {
    const ctx = await computed(t);
    const { call, staff, soleil, run, cdd, contractNumbers } = ctx;
    const draft = run.payslips[0] as { id: string };
    const month = await call(staff, 'GET', `/api/staff/paie/mois?org_id=${soleil}&period=${PERIOD}`);
    assert.equal(month.statusCode, 200, month.body);
    assert.deepEqual(
      month.json().drafts.map((d: { id: string; kind: string }) => [d.id, d.kind]),
      [[draft.id, 'normal']],
    );
    assert.deepEqual(
      month.json().skipped.map((s: { contract_id: string }) => s.contract_id),
      [cdd],
    );
    assert.equal(month.json().last_run.id, ctx.runId);

    // The month reopened: its drafts, its skipped contracts and "Valider", with no run in the address.
    const page = await call(staff, 'GET', `/staff/paie?org_id=${soleil}&period=03/2027`);
    assert.equal(page.statusCode, 200);
    assert.deepEqual(cells(tableOf(page.body, 'draft-table'), 'Statut'), ['Brouillon']);
    assert.match(
      page.body,
      new RegExp(`<button type="button" class="button" id="validate" data-ids="${draft.id}" data-count="1">Valider le bulletin</button>`),
    );
    assert.match(page.body, new RegExp(`data-reason="cdd_not_computed"><strong>${contractNumbers.get(cdd)} \\(Marc Dupont\\)`));
    assert.match(page.body, /Calcul terminé : 1 contrat calculé\./);

    const validated = await call(staff, 'POST', '/api/staff/paie/valider', { org_id: soleil, period: PERIOD, payslip_ids: [draft.id] });
    assert.equal(validated.statusCode, 200, validated.body);
    await ctx.app.jobs.worker.runDue();
    const batch = await ctx.batch([draft.id]);
    assert.equal(batch.statusCode, 201, batch.body);
    const after = await call(staff, 'GET', `/staff/paie?org_id=${soleil}&period=03/2027&appel=${validated.json().contribution_call_id}`);
    const organisms = [.../<ul class="plain" id="call-lines">([\s\S]*?)<\/ul>/.exec(after.body)![1]!.matchAll(/<li>([^:<]+) :/g)].map((m) => m[1]);
    assert.ok(organisms.includes('Congés Spectacles') && organisms.includes('France Travail'), organisms.join(', '));
    assert.doesNotMatch(after.body, /CONGES_SPECTACLES|FRANCE_TRAVAIL/);
    const published = tableOf(after.body, 'payslip-table');
    assert.deepEqual(cells(published, 'PDF'), ['Établi par le service']);
    assert.deepEqual(cells(published, 'Statut'), ['Publié Virement préparé : le fichier SEPA est prêt, pas encore exécuté']);
    assert.ok(!after.body.includes('id="validate"'), 'nothing left to validate');

    // An avenant adding a March date: the contract's page says the month is to compute again; the complement sits beside the original.
    const amended = await call(
      staff,
      'POST',
      `/api/contrats/${ctx.artist}/avenants`,
      { end_date: '2027-04-02', dates: [{ date: '2027-03-28', nature: 'representation', quantity: 1, amount: '231.20' }] },
      { 'x-active-org-id': soleil },
    );
    assert.equal(amended.statusCode, 200, amended.body);
    const contractPage = await call(ctx.agent, 'GET', `/contrats/${ctx.artist}`);
    assert.match(contractPage.body, /À recalculer : mars 2027 \(déjà validé, un bulletin complémentaire paiera la différence\)\./);
    assert.match(contractPage.body, /<p class="hint" id="avenant-published">Mois déjà validés pour ce contrat : mars 2027\./);
    const again = await call(staff, 'POST', '/api/staff/paie/calcul', { org_id: soleil, period: PERIOD });
    let second = (await call(staff, 'GET', `/api/staff/paie/runs/${again.json().run_id}`)).json();
    while (second.status === 'en_cours') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      second = (await call(staff, 'GET', `/api/staff/paie/runs/${again.json().run_id}`)).json();
    }
    assert.equal(second.status, 'termine', JSON.stringify(second));
    const complement = second.payslips[0] as { id: string; gross: string };
    assert.equal(complement.gross, '231.20');
    const withComplement = await call(staff, 'GET', `/staff/paie?org_id=${soleil}&period=03/2027`);
    assert.match(
      tableOf(withComplement.body, 'draft-table'),
      new RegExp(`data-draft-id="${complement.id}" data-status="brouillon" data-kind="complementaire"`),
    );
    assert.equal((await call(staff, 'POST', '/api/staff/paie/valider', { org_id: soleil, period: PERIOD })).statusCode, 200);
    const paie = await call(ctx.admin, 'GET', '/paie');
    assert.match(paie.body, new RegExp(`<tr data-payslip-id="${complement.id}" data-kind="complementaire" data-complements="${draft.id}">`));
    assert.match(paie.body, /Bulletin complémentaire : la différence due après une modification du contrat/);
  });

  it("should list the month's typed payslips with their actions, and the employees to type one for", async (t) => {
    const { call, staff, soleil, helene, marc, payslip } = await setup(t);
    const typed = await payslip(soleil, marc, PERIOD, '1830.00', '2300.00');
    const cancelled = await payslip(soleil, helene, PERIOD, '100.00');
    assert.equal((await call(staff, 'POST', `/api/staff/payslips/${cancelled}/cancel`)).statusCode, 200);
    const res = await call(staff, 'GET', `/staff/paie?org_id=${soleil}&period=3/2027`);
    assert.equal(res.statusCode, 200);
    assert.match(
      res.body,
      /<select id="payslip-employee" name="employee_id"[^>]*><option value="" selected>Choisissez un salarié<\/option><option value="[^"]+">Bernard Zoé<\/option>/,
    );
    assert.match(res.body, /<input id="payslip-period" name="period"[^>]* value="03\/2027"/);
    assert.match(res.body, /<p id="payslip-net-error" class="field-error" hidden><\/p>/);
    const table = tableOf(res.body, 'payslip-table');
    assert.deepEqual(cells(table, 'Salarié'), ['Marc Dupont', 'Hélène Lefèvre']);
    assert.deepEqual(cells(table, 'Origine'), ['Saisi', 'Saisi']);
    assert.deepEqual(cells(table, 'Brut'), [`2${NBSP}300,00${NBSP}€`, `3${NBSP}000,00${NBSP}€`]);
    assert.deepEqual(cells(table, 'Net à payer'), [`1${NBSP}830,00${NBSP}€`, `100,00${NBSP}€`]);
    assert.deepEqual(cells(table, 'Statut'), ['Publié', 'Annulé']);
    assert.ok(table.includes(`data-upload="${typed}"`) && table.includes(`data-cancel="${typed}"`));
    assert.ok(!table.includes(`data-cancel="${cancelled}"`), 'a cancelled payslip has no action');
  });
});

describe('unpayableReason', () => {
  it('should say why a published payslip cannot be paid, in the order staff fix it', () => {
    const ok = { virements_salaires: 'Odentas', iban: 'FR7630006000011234567890189', net_to_pay: '10.00' };
    assert.equal(unpayableReason(ok), null);
    assert.equal(unpayableReason({ ...ok, virements_salaires: 'Client' }), 'own_salaries');
    assert.equal(unpayableReason({ ...ok, net_to_pay: '0.00' }), 'net_zero');
    assert.equal(unpayableReason({ ...ok, iban: null }), 'no_iban');
    assert.equal(unpayableReason({ ...ok, iban: 'FR7630006000011234567890180' }), 'invalid_iban');
    assert.equal(unpayableReason({ ...ok, iban: 'TR330006100519786457841326' }), 'iban_outside_sepa');
  });
});

describe('GET /staff/virements: what cannot be paid', () => {
  it('should list each unpayable payslip with its reason and where to fix it (no IBAN, outside SEPA, own salaries, net zero)', async (t) => {
    const { db, call, staff, soleil, autonome, helene, marc, zoe, autonomeEmployee, payslip, employee, agent } = await setup(t);
    const payable = await payslip(soleil, helene, PERIOD, '2104.50');
    const noIban = await payslip(soleil, zoe, PERIOD, '1500.00');
    const turkish = await employee(agent, 'Emre', 'Yilmaz');
    await db.updateTable('employees').set({ iban: 'TR330006100519786457841326' }).where('id', '=', turkish).execute();
    const outside = await payslip(soleil, turkish, PERIOD, '800.00');
    const own = await payslip(autonome, autonomeEmployee, PERIOD, '900.00');
    const zero = await payslip(soleil, marc, PERIOD, '0.00');
    const res = await call(staff, 'GET', '/staff/virements');
    assert.equal(res.statusCode, 200);
    const table = tableOf(res.body, 'unpayable-table');
    const ids = [...table.matchAll(/<tr data-unpayable-id="([^"]+)" data-reason="([^"]+)">/g)].map((m) => [m[1], m[2]]);
    // By organization, then name.
    assert.deepEqual(ids, [
      [own, 'own_salaries'],
      [noIban, 'no_iban'],
      [zero, 'net_zero'],
      [outside, 'iban_outside_sepa'],
    ]);
    assert.deepEqual(cells(table, 'Raison'), [
      'L&#39;organisation paie elle-même ses salaires',
      'Aucun IBAN pour ce salarié',
      'Net à payer nul',
      'IBAN hors de la zone SEPA',
    ]);
    assert.deepEqual(cells(table, 'IBAN'), ['•••• 7034', '—', '•••• 3000', '•••• 1326']);
    assert.deepEqual(cells(table, 'Net à payer'), [`900,00${NBSP}€`, `1${NBSP}500,00${NBSP}€`, `0,00${NBSP}€`, `800,00${NBSP}€`]);
    assert.deepEqual(cells(table, 'Corriger'), [
      'Modifier le mode de virement : Paul Autonome, mars 2027',
      'Saisir l&#39;IBAN du salarié : Zoé Bernard, mars 2027',
      'Voir les bulletins du mois : Marc Dupont, mars 2027',
      'Saisir l&#39;IBAN du salarié : Emre Yilmaz, mars 2027',
    ]);
    assert.ok(table.includes(`href="/staff/organisations/${autonome}"`));
    assert.ok(table.includes(`href="/staff/organisations/${soleil}"`));
    assert.ok(table.includes(`href="/staff/paie?org_id=${soleil}&amp;period=03/2027"`));
    assert.ok(!table.includes(payable), 'a payable payslip is in "Bulletins à payer" only');
    assert.ok(!table.includes('TR33'), 'never an IBAN beyond its last four characters');
    // The organization's filter applies to both lists.
    const filtered = tableOf((await call(staff, 'GET', `/staff/virements?org_id=${autonome}`)).body, 'unpayable-table');
    assert.deepEqual(
      [...filtered.matchAll(/data-unpayable-id="([^"]+)"/g)].map((m) => m[1]),
      [own],
    );
  });

  it('should refuse to mark a batch executed before its execution date (400, French), and ask for a confirmation first', async (t) => {
    const { call, staff, soleil, helene, payslip, batch } = await setup(t);
    const made = (await batch([await payslip(soleil, helene, PERIOD, '2104.50')], inDays(3))).json();
    const early = await call(staff, 'POST', `/api/staff/virements/${made.id}/executed`);
    assert.equal(early.statusCode, 400);
    assert.deepEqual(early.json(), {
      error: 'execution_date_in_future',
      message: `Ce lot ne peut pas être marqué exécuté avant sa date d'exécution (${formatDateFr(inDays(3))}).`,
    });
    assert.equal((await call(staff, 'GET', `/api/staff/virements/${made.id}`)).json().status, 'genere', 'nothing changed');
    const page = await call(staff, 'GET', '/staff/virements');
    assert.match(page.body, new RegExp(`<p class="field-error" id="executed-error-${made.id}" role="alert" hidden></p>`));
    assert.match(page.body, /<dialog id="confirm-executed" class="dialog"[\s\S]*?Marquer ce lot exécuté \?/);
  });
});
