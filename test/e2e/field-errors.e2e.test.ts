/**
 * "errors that contradict their field", in a real browser: each refusal speaks of what
 * the person typed, in the format the field asks for, next to that field (its error box, named
 * by `aria-describedby`, the field `aria-invalid`): a contract's line dated outside its period,
 * the contracts filter's 31/02/2026, `/paie`'s period, a transfer's execution date in the past.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { IBAN, OPERATOR_ENV } from '../payslips/support.ts';
import { focusedId, horizontalOverflow, screenshot, signedInPage, skipReason, startApp, suiteBrowser, type TestContext } from './support.ts';
import { addDays } from '../../src/format/calendar.ts';
import { formatDateFr, todayInFrance } from '../../src/format/french.ts';

async function organization(t: TestContext) {
  const app = await startApp(t, OPERATOR_ENV);
  const db = app.database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const agent = await member(app.app, db, soleil, 'agent@soleil.example', 'AGENT');
  const staff = await signedIn(app.app, db, 'camille@operateur.example', { staff: 'STAFF' });
  const call = async (who: Person, method: 'POST' | 'PATCH', url: string, payload: object) => {
    const res = await app.app.inject({ method, url, headers: { cookie: who.cookie }, payload });
    assert.ok(res.statusCode < 300, res.body);
    return res.json();
  };
  await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { virements_salaires: 'Odentas' });
  const helene = (await call(agent, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', iban: IBAN.helene, bic: 'AGRIFRPP' })).id as string;
  return { app, soleil, agent, staff, helene, call };
}

/** The field's error box (the `-error` id its `aria-describedby` names), its text, and whether the field is marked invalid. */
async function fieldError(page: import('playwright-core').Page, id: string): Promise<{ text: string; invalid: boolean }> {
  return page.evaluate((fieldId) => {
    const field = document.getElementById(fieldId)!;
    const boxId = (field.getAttribute('aria-describedby') ?? '').split(/\s+/).find((one) => one.endsWith('-error'));
    const box = boxId ? document.getElementById(boxId) : null;
    return { text: box && !box.hidden ? (box.textContent ?? '').trim() : '', invalid: field.getAttribute('aria-invalid') === 'true' };
  }, id);
}

describe('errors next to their field, in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it("should show a contract line's date outside the period next to that line, with the period in JJ/MM/AAAA", { timeout: 240_000 }, async (t) => {
    const { app, agent } = await organization(t);
    const { page, errors } = await signedInPage(browser(), app, agent, t);
    await page.goto(`${app.url}/contrats/nouveau`);
    await page.locator('#contract-employee_id').selectOption({ label: 'Lefèvre Hélène' });
    await page.locator('#contract-show_title').fill('Les Misérables');
    await page.locator('#contract-start_date').fill('01/03/2027');
    await page.locator('#contract-end_date').fill('31/03/2027');
    for (const [n, date] of [
      [1, '02/03/2027'],
      [2, '20/03/2027'],
      [3, '15/04/2027'],
    ] as const) {
      await page.locator('#add-line').click();
      await page.locator(`#line-date-${n}`).fill(date);
      await page.locator(`#line-amount-${n}`).fill('180,50');
    }
    // A line removed first: the lines are renumbered, and so are their error boxes.
    await page.getByRole('button', { name: 'Retirer la ligne 2' }).click();
    await page.locator('#add-line').click();
    await page.locator('#line-date-3').fill('21/03/2027');
    await page.locator('#line-amount-3').fill('100');
    await page.locator('#save-contract').click();

    const outside = 'Le 15/04/2027 est en dehors de la période du contrat (du 01/03/2027 au 31/03/2027) : choisissez une date dans cette période.';
    await page.locator('#line-date-2-error', { hasText: outside }).waitFor();
    assert.deepEqual(await fieldError(page, 'line-date-2'), { text: outside, invalid: true });
    assert.deepEqual(await fieldError(page, 'line-date-1'), { text: '', invalid: false }, 'the other lines are not marked');
    assert.deepEqual(await fieldError(page, 'line-date-3'), { text: '', invalid: false });
    assert.equal(await focusedId(page), 'line-date-2');
    await page.locator('#status', { hasText: `Ligne 2 : ${outside}` }).waitFor();
    assert.ok(!(await page.locator('#contract-form-page').textContent())!.includes('AAAA-MM-JJ'), 'no word of the API format');
    await screenshot(page, 'field-error-contract-line-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'field-error-contract-line-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A day that does not exist, on the line it is on.
    await page.locator('#line-date-2').fill('31/02/2027');
    await page.locator('#save-contract').click();
    await page.locator('#line-date-2-error', { hasText: "Le 31/02/2027 n'existe pas : saisissez une date au format JJ/MM/AAAA." }).waitFor();

    await page.locator('#line-date-2').fill('15/03/2027');
    await Promise.all([page.waitForURL(/\/contrats\/[0-9a-f-]+\?cree=1$/), page.locator('#save-contract').click()]);

    // An avenant's date outside the new period: next to that date, with the new period.
    await page.locator('#avenant-end_date').fill('05/04/2027');
    await page.locator('#avenant-date-1').fill('10/04/2027');
    await page.locator('#avenant-amount-1').fill('100');
    await page.locator('#save-avenant').click();
    const beyond = 'Le 10/04/2027 est en dehors de la période du contrat (du 01/03/2027 au 05/04/2027) : choisissez une date dans cette période.';
    await page.locator('#avenant-date-1-error', { hasText: beyond }).waitFor();
    assert.deepEqual(await fieldError(page, 'avenant-date-1'), { text: beyond, invalid: true });
    assert.equal(await focusedId(page), 'avenant-date-1');
    await page.locator('#avenant-date-1').fill('02/04/2027');
    await page.locator('#save-avenant').click();
    await page.locator('#status', { hasText: 'Avenant enregistré : 1 date ajoutée.' }).waitFor();
    assert.deepEqual(
      errors.filter((e) => !e.includes('400')),
      [],
    );
  });

  it('should answer the contracts filter 31/02/2026 and /paie 13/2027 in their own format, next to the field', { timeout: 240_000 }, async (t) => {
    const { app, agent } = await organization(t);
    const { page, errors } = await signedInPage(browser(), app, agent, t);
    await page.goto(`${app.url}/contrats`);
    await page.locator('#filter-from').fill('31/02/2026');
    await Promise.all([page.waitForURL(/from=31%2F02%2F2026/), page.locator('#filter-submit').click()]);
    assert.deepEqual(await fieldError(page, 'filter-from'), { text: "Le 31/02/2026 n'existe pas : saisissez une date au format JJ/MM/AAAA.", invalid: true });
    assert.equal(await page.locator('#filter-from').inputValue(), '31/02/2026', 'what was typed stays');
    assert.equal((await page.locator('[role="alert"]').textContent())?.trim(), 'Liste non affichée : corrigez le filtre « En cours à partir du ».');
    assert.ok(!(await page.locator('main').textContent())!.includes('AAAA-MM-JJ'));
    await screenshot(page, 'field-error-contrats-filter-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'field-error-contrats-filter-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.goto(`${app.url}/paie`);
    assert.equal(await page.locator('#filter-period').getAttribute('placeholder'), 'MM/AAAA');
    await page.locator('#filter-period').fill('13/2027');
    await Promise.all([page.waitForURL(/period=13%2F2027/), page.locator('#filter-submit').click()]);
    assert.deepEqual(await fieldError(page, 'filter-period'), {
      text: "13/2027 n'existe pas : le mois va de 01 à 12. Saisissez une période au format MM/AAAA.",
      invalid: true,
    });
    assert.ok(!(await page.locator('main').textContent())!.includes('AAAA-MM'), 'no word of the API format');
    await page.locator('#filter-period').fill('03/2027');
    await Promise.all([page.waitForURL(/period=03%2F2027/), page.locator('#filter-submit').click()]);
    assert.deepEqual(await fieldError(page, 'filter-period'), { text: '', invalid: false });
    assert.deepEqual(
      errors.filter((e) => !e.includes('400')),
      [],
    );
  });

  it('should say an execution date in the past is past, next to the field (staff virements)', { timeout: 240_000 }, async (t) => {
    const { app, soleil, staff, helene, call } = await organization(t);
    await call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: helene, period: '2027-03', gross: '2700.00', net_to_pay: '2104.50' });
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.goto(`${app.url}/staff/virements`);
    await page.locator('#select-all').check();
    const today = todayInFrance();
    await page.locator('#execution-date').fill(formatDateFr(addDays(today, -1)));
    await page.locator('#create-transfer').click();
    const past = `La date d'exécution est passée : choisissez aujourd'hui (${formatDateFr(today)}) ou une date à venir, au format JJ/MM/AAAA.`;
    await page.locator('#execution-date-error', { hasText: past }).waitFor();
    assert.deepEqual(await fieldError(page, 'execution-date'), { text: past, invalid: true });
    assert.equal(await focusedId(page), 'execution-date');
    await page.locator('#transfer-status', { hasText: past }).waitFor();
    await screenshot(page, 'field-error-execution-date-1280');

    await page.locator('#execution-date').fill(formatDateFr(today));
    await page.locator('#create-transfer').click();
    // March 2027's salaries paid today: asked about first (the page's check, not a refusal).
    await page.locator('#confirm-date').waitFor();
    await Promise.all([page.waitForURL(/lot=/), page.locator('#confirm-date-ok').click()]);
    assert.deepEqual(
      errors.filter((e) => !e.includes('400')),
      [],
    );
  });
});
