/**
 * `/staff/paie` in a real browser: a staff member computes an organization's month,
 * follows the progress bar to its end, reads the drafts' figures and why a contract was skipped,
 * downloads a draft's bulletin, validates after a confirmation and sees the contribution call;
 * then types in a payslip the run does not compute, sees a duplicate and a net above the gross
 * refused next to their fields, attaches its PDF and cancels it after a confirmation. On a
 * desktop and on a phone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { IBAN, OPERATOR_ENV, inDays } from '../payslips/support.ts';
import { formatDateFr, formatEuros } from '../../src/format/french.ts';
import { moneyFromDb } from '../../src/money/money.ts';
import { horizontalOverflow, screenshot, signedInPage, skipReason, startApp, suiteBrowser, type TestContext, texts, focusedId } from './support.ts';

const NBSP = '\u00a0';
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(512, 0x20), Buffer.from('\n%%EOF\n')]);

/** Le Soleil, its artist's CDDU of March 2027 (3 dates, 1 000,00 €), a CDD the run skips, and an employee without contract; the runner running. */
async function month(t: TestContext) {
  const app = await startApp(t, OPERATOR_ENV);
  app.app.payroll.worker.start();
  t.after(() => app.app.payroll.worker.stop());
  const db = app.database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const staff = await signedIn(app.app, db, 'camille@operateur.example', { staff: 'STAFF', metadata: { first_name: 'Camille' } });
  const agent = await member(app.app, db, soleil, 'agent@soleil.example', 'AGENT');
  const call = async (who: Person, method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object) => {
    const res = await app.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, res.body);
    return res.json();
  };
  await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { virements_salaires: 'Odentas' });
  const helene = (await call(agent, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', iban: IBAN.helene, category: 'artiste' })).id;
  const marc = (await call(agent, 'POST', '/api/salaries', { first_name: 'Marc', last_name: 'Dupont', iban: IBAN.marc, category: 'technicien' })).id;
  await call(agent, 'POST', '/api/salaries', { first_name: 'Zoé', last_name: 'Bernard', iban: IBAN.other });
  const contract = async (body: object) => {
    const created = await call(agent, 'POST', '/api/contrats', body);
    await call(agent, 'POST', `/api/contrats/${created.id}/submit`);
    return created as { id: string; contract_number: string };
  };
  await contract({
    employee_id: helene,
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
  const cdd = await contract({
    employee_id: marc,
    kind: 'CDD',
    job_title: 'Régisseur',
    start_date: '2027-03-01',
    end_date: '2027-03-31',
    monthly_gross: '2000',
  });
  return { app, soleil, staff, call, cdd };
}

describe('/staff/paie in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it("should let staff compute, check and validate an organization's month, then type in, attach and cancel a payslip", { timeout: 400_000 }, async (t) => {
    const { app, soleil, staff, call, cdd } = await month(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The entry, distinct from the client's "Paie"; the organization and the month.
    await page.goto(`${app.url}/staff/facturation`);
    await Promise.all([page.waitForURL(/\/staff\/paie$/), page.getByRole('link', { name: 'Paie', exact: true }).click()]);
    assert.equal(await page.locator('h1').textContent(), 'Calcul de la paie');
    await page.locator('#paie-org').selectOption({ label: 'Théâtre du Soleil (TDS001)' });
    await page.locator('#paie-period').fill('03/2027');
    await Promise.all([page.waitForURL(/org_id=.*period=03%2F2027/), page.locator('#paie-period').press('Enter')]);
    assert.equal(await page.locator('#run-title').textContent(), 'Calcul de mars 2027');
    assert.equal(await page.locator('#run-progress-box').isVisible(), false, 'no bar before a run');

    // "Calculer": the bar follows the run to its end, then the drafts.
    await page.locator('#run-start').click();
    await page.waitForURL(/run=[0-9a-f-]{36}/, { timeout: 120_000 });
    await page.locator('#draft-table').waitFor({ timeout: 120_000 });
    const runId = new URL(page.url()).searchParams.get('run')!;
    const run = await call(staff, 'GET', `/api/staff/paie/runs/${runId}`);
    assert.equal(run.status, 'termine');
    const bar = await page.locator('#run-progress').evaluate((el: HTMLProgressElement) => [el.value, el.max]);
    assert.deepEqual(bar, [1, 1], 'the bar at its end');
    assert.equal(await page.locator('#run-progress-text').textContent(), 'Calcul terminé : 1 contrat calculé.');
    const draft = run.payslips[0];
    assert.deepEqual(await texts(page, '#draft-table tbody td[data-label="Salarié"]'), ['Hélène Lefèvre']);
    assert.deepEqual(await texts(page, '#draft-table tbody td[data-label="Brut"]'), [`1${NBSP}000,00${NBSP}€`]);
    assert.deepEqual(await texts(page, '#draft-table tbody td[data-label="Net avant impôt"]'), [formatEuros(draft.net_before_tax)]);
    assert.deepEqual(await texts(page, '#draft-table tbody td[data-label="Net payé"]'), [formatEuros(draft.net_to_pay)]);
    assert.deepEqual(await texts(page, '#draft-table tbody td[data-label="Coût employeur"]'), [formatEuros(draft.employer_cost)]);
    assert.deepEqual(await texts(page, '#skipped-list li'), [
      `${cdd.contract_number} (Marc Dupont) : CDD : les indemnités de fin de contrat demandent le contrat entier ; saisissez ce bulletin.`,
    ]);
    await screenshot(page, 'staff-paie-1280');

    // The draft's bulletin, to check before validating.
    const [bulletin] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), page.locator(`button[data-bulletin="${draft.id}"]`).click()]);
    assert.equal(bulletin.suggestedFilename(), 'brouillon-Lefèvre-Hélène.pdf');
    assert.equal(
      fs
        .readFileSync((await bulletin.path())!)
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );

    // "Valider" asks first; kept, nothing happens; confirmed, the contribution call.
    await page.locator('#validate').click();
    assert.equal(await page.locator('#confirm-validate').isVisible(), true);
    await page.locator('#confirm-validate').getByRole('button', { name: 'Ne pas valider' }).click();
    assert.equal(await page.locator('#validate').isVisible(), true);
    await page.locator('#validate').click();
    // The payment date, prefilled with the month's last working day, changed to the 2nd of April.
    assert.equal(await page.locator('#validate-payment-date').inputValue(), '2027-03-31');
    await page.locator('#validate-payment-date').fill('2027-04-02');
    await Promise.all([page.waitForURL(/appel=[0-9a-f-]{36}/), page.locator('#confirm-validate-ok').click()]);
    const paid = await app.database.db.selectFrom('payslips').select('payment_date').where('id', '=', draft.id).executeTakeFirstOrThrow();
    assert.equal(paid.payment_date, '2027-04-02');
    const made = await app.database.db.selectFrom('contribution_calls').select(['total', 'number']).where('org_id', '=', soleil).executeTakeFirstOrThrow();
    const total = moneyFromDb(made.total);
    assert.match(
      (await page.locator('#call-summary').textContent())!,
      new RegExp(
        `^Appel de cotisations ${made.number} de mars 2027 pour Théâtre du Soleil \\(Appel du mois, 1 bulletin\\) : total ${formatEuros(total)}, à payer au plus tard le 15/04/2027\\.$`,
      ),
    );
    assert.equal(await focusedId(page), 'call-title');
    assert.deepEqual(await texts(page, '#draft-table tbody td[data-label="Statut"]'), ['Publié']);
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Origine"]'), ['Calculé']);

    // A payslip the run does not compute, typed in.
    await page.locator('#payslip-employee').selectOption({ label: 'Bernard Zoé' });
    await page.locator('#payslip-gross').fill('2 300,00');
    await page.locator('#payslip-net').fill('1 830,00');
    // Asked first, with its figures; kept back, nothing is published.
    await page.locator('#payslip-submit').click();
    assert.equal(await page.locator('#confirm-publish').isVisible(), true, 'a confirmation first');
    assert.equal(
      await page.locator('#confirm-publish-text').textContent(),
      "Bernard Zoé, 03/2027 : brut 2 300,00 €, net à payer 1 830,00 €. Publié, le bulletin est visible par l'organisation et ne peut plus être modifié (seulement annulé).",
    );
    await page.keyboard.press('Escape');
    assert.equal(await focusedId(page), 'payslip-submit');
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Salarié"]'), ['Hélène Lefèvre']);
    await page.locator('#payslip-submit').click();
    await page.locator('#confirm-publish-ok').click();
    await page.locator('#payslip-status', { hasText: 'Bulletin publié : Bernard Zoé, 03/2027.' }).waitFor();
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Salarié"]'), ['Zoé Bernard', 'Hélène Lefèvre']);
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Net à payer"]'), [`1${NBSP}830,00${NBSP}€`, formatEuros(draft.net_to_pay)]);

    // The same again: the duplicate refused next to the employee; a net above the gross next to the net.
    await page.locator('#payslip-employee').selectOption({ label: 'Bernard Zoé' });
    await page.locator('#payslip-gross').fill('2300');
    await page.locator('#payslip-net').fill('1830');
    await page.locator('#payslip-submit').click();
    await page.locator('#confirm-publish-ok').click();
    await page
      .locator('#payslip-employee-error', { hasText: 'Un bulletin de paie non annulé existe déjà pour ce salarié, cette période et ces contrats' })
      .waitFor();
    assert.equal(await page.locator('#payslip-employee').getAttribute('aria-invalid'), 'true');
    assert.equal(await focusedId(page), 'payslip-employee');
    await page.locator('#payslip-employee').selectOption({ label: 'Dupont Marc' });
    await page.locator('#payslip-gross').fill('100,00');
    await page.locator('#payslip-net').fill('200,00');
    await page.locator('#payslip-submit').click();
    await page.locator('#confirm-publish-ok').click();
    await page.locator('#payslip-net-error', { hasText: 'Le net à payer ne peut pas dépasser le salaire brut.' }).waitFor();
    assert.equal(await page.locator('#payslip-employee-error').isVisible(), false, 'the previous refusal is gone');

    // The computed bulletin is rendered by its job (as the server's worker would), then read again.
    assert.equal(await app.app.jobs.worker.runDue(), 1);
    await page.reload();
    // Its PDF, then its cancellation after a confirmation.
    const zoeRow = page.locator('#payslip-table tbody tr', { hasText: 'Zoé Bernard' });
    await zoeRow.locator('input[type="file"]').setInputFiles({ name: 'bulletin-zoe.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.locator('#payslips-status', { hasText: 'PDF « bulletin-zoe.pdf » joint au bulletin.' }).waitFor();
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="PDF"]'), ['Joint', 'Établi par le service']);
    await page
      .locator('#payslip-table tbody tr', { hasText: 'Zoé Bernard' })
      .getByRole('button', { name: /^Annuler/ })
      .click();
    assert.match((await page.locator('#confirm-cancel-payslip-text').textContent())!, /Zoé Bernard, mars 2027/);
    await page.locator('#confirm-cancel-payslip-ok').click();
    await page.locator('#payslips-status', { hasText: 'Bulletin de Zoé Bernard, mars 2027 annulé.' }).waitFor();
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Statut"]'), ['Annulé', 'Publié']);
    assert.deepEqual(errors, []);

    // A phone: no sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.url}/staff/paie?org_id=${soleil}&period=03%2F2027&run=${runId}`);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'staff-paie-390');
    assert.deepEqual(errors, []);
  });

  it('should say on /staff/virements which payslips cannot be paid and why, and refuse "Marquer exécuté" before the execution date, after a confirmation', {
    timeout: 200_000,
  }, async (t) => {
    const { app, soleil, staff, call } = await month(t);
    const db = app.database.db;
    const byName = new Map(
      (await db.selectFrom('employees').select(['id', 'last_name']).where('org_id', '=', soleil).execute()).map((e) => [e.last_name, e.id]),
    );
    // Zoé's IBAN taken away: her payslip cannot be paid.
    const noIban = byName.get('Bernard')!;
    await db.updateTable('employees').set({ iban: null }).where('id', '=', noIban).execute();
    const paid = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: byName.get('Lefèvre'),
      period: '2027-02',
      gross: '1200.00',
      net_to_pay: '950.00',
    });
    const unpaid = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: noIban,
      period: '2027-02',
      gross: '500.00',
      net_to_pay: '400.00',
    });
    const batch = await call(staff, 'POST', '/api/staff/virements', { payslip_ids: [paid.id], execution_date: inDays(2) });

    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.goto(`${app.url}/staff/virements`);
    const row = page.locator(`#unpayable-table tr[data-unpayable-id="${unpaid.id}"]`);
    assert.equal(await row.locator('td[data-label="Raison"]').textContent(), 'Aucun IBAN pour ce salarié');
    assert.equal(await row.locator('a').getAttribute('href'), `/staff/organisations/${soleil}`);

    await page.getByRole('button', { name: `Marquer exécuté : lot ${batch.reference}` }).click();
    assert.equal(await page.locator('#confirm-executed').isVisible(), true, 'a confirmation first');
    await page.locator('#confirm-executed-ok').click();
    const error = page.locator(`#executed-error-${batch.id}`);
    await error.waitFor();
    assert.equal(await error.textContent(), `Ce lot ne peut pas être marqué exécuté avant sa date d'exécution (${formatDateFr(inDays(2))}).`);
    assert.deepEqual(await texts(page, '#batch-table tbody td[data-label="Statut"]'), ['Généré']);
    assert.deepEqual(
      errors.filter((e) => !e.includes('400')),
      [],
    );
  });
});
