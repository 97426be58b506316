/**
 * What a newcomer's month found on the pages, in chromium at 1,280 and 390 px: the
 * transfers page (a date far from the months paid asked about, an early "executed" said once,
 * the batches' table within its card), selects wide enough for their options, and the month's
 * invoices proposed from its published payslips.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { IBAN, OPERATOR_ENV, inDays } from '../payslips/support.ts';
import { formatDateFr, todayInFrance } from '../../src/format/french.ts';
import { addMonths } from '../../src/format/calendar.ts';
import { focusedId, horizontalOverflow, signedInPage, skipReason, startApp, suiteBrowser, texts, type TestContext } from './support.ts';

const NBSP = '\u00a0';
const MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];
const THIS_MONTH = todayInFrance().slice(0, 7);
const NEXT_MONTH = addMonths(THIS_MONTH, 1);
const monthFr = (p: string) => `${MONTHS[Number(p.slice(5, 7)) - 1]} ${p.slice(0, 4)}`;

async function operator(t: TestContext) {
  const app = await startApp(t, OPERATOR_ENV);
  const db = app.database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const staff = await signedIn(app.app, db, 'camille@operateur.example', { staff: 'STAFF' });
  const admin = await member(app.app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const call = async (who: Person, method: 'POST' | 'PATCH', url: string, payload: object) => {
    const res = await app.app.inject({ method, url, headers: { cookie: who.cookie }, payload });
    assert.ok(res.statusCode < 300, res.body);
    return res.json();
  };
  await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { virements_salaires: 'Odentas' });
  const helene = (await call(admin, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', iban: IBAN.helene, category: 'artiste' })).id;
  const marc = (await call(admin, 'POST', '/api/salaries', { first_name: 'Marc', last_name: 'Dupont', iban: IBAN.marc, category: 'technicien' })).id;
  return { app, db, soleil, staff, admin, helene, marc, call };
}

/** The widths of a table and of the box that scrolls it: a table wider than its box hides columns. */
const tableFit = (page: Page, selector: string) =>
  page.locator(selector).evaluate((table) => ({ table: Math.round(table.getBoundingClientRect().width), box: Math.round(table.parentElement!.clientWidth) }));

/** The selects of the page whose longest option is wider than the select shows (arrow and padding left aside). */
const cutSelects = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('select'))
      .filter((s) => s.offsetParent !== null && s.id !== '')
      .flatMap((sel) => {
        const style = getComputedStyle(sel);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = sel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 18;
        const text = sel.selectedOptions[0]?.text ?? '';
        return context.measureText(text).width > room ? [`${sel.id}: ${text}`] : [];
      }),
  );

describe("a newcomer's month in chromium", { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it('should ask about a batch date far from the months paid, say an early "executed" once, and keep the batches in their card', {
    timeout: 300_000,
  }, async (t) => {
    const { app, soleil, staff, helene, marc, call } = await operator(t);
    const next = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: helene,
      period: NEXT_MONTH,
      gross: '1200.00',
      net_to_pay: '950.00',
    });
    const now = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: marc,
      period: THIS_MONTH,
      gross: '1000.00',
      net_to_pay: '800.00',
    });
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/staff/virements`);

    // Next month's salaries, dated today: asked about, and kept back the date is marked.
    await page.locator(`#select-${next.id}`).check();
    await page.locator('#create-transfer').click();
    const doubt = `Ces bulletins paient ${monthFr(NEXT_MONTH)} : une exécution le ${formatDateFr(todayInFrance())} paierait ces salaires avant le début du mois. Vérifiez la date, ou la période des bulletins.`;
    assert.equal(await page.locator('#confirm-date').isVisible(), true);
    assert.equal(await page.locator('#confirm-date-text').textContent(), doubt);
    await page.keyboard.press('Escape');
    // The dialog's close event comes after the key: the error is awaited, then read whole.
    await page.locator('#execution-date-error', { hasText: doubt }).waitFor();
    assert.equal(await page.locator('#execution-date-error').textContent(), doubt);
    assert.equal(await focusedId(page), 'execution-date');
    assert.equal(
      await app.database.db
        .selectFrom('transfers')
        .select('id')
        .execute()
        .then((r) => r.length),
      0,
      'nothing created',
    );

    // This month's, in two days: no question; the batch is made.
    await page.locator(`#select-${next.id}`).uncheck();
    await page.locator(`#select-${now.id}`).check();
    await page.locator('#execution-date').fill(formatDateFr(inDays(2)));
    await Promise.all([page.waitForURL(/lot=/), page.locator('#create-transfer').click()]);
    assert.equal(await page.locator('#confirm-date').isVisible(), false);

    // Marked executed before its date: said once, next to its date, the table within its card.
    const reference = (await texts(page, '#batch-table tbody td[data-label="Référence"]'))[0]!;
    await page.getByRole('button', { name: `Marquer exécuté : lot ${reference}` }).click();
    await page.locator('#confirm-executed-ok').click();
    const said = `Ce lot ne peut pas être marqué exécuté avant sa date d'exécution (${formatDateFr(inDays(2))}).`;
    await page.locator('#batch-table .field-error', { hasText: said }).waitFor();
    assert.equal((await page.locator('#batches-status').textContent())?.trim(), '', 'not said a second time');
    assert.equal(await page.getByText(said).count(), 1);
    const fit = await tableFit(page, '#batch-table');
    assert.ok(fit.table <= fit.box, `the batches' table (${fit.table} px) fits its card (${fit.box} px)`);
    assert.equal(await page.locator('#batch-table td[data-label="Actions"] button').first().isVisible(), true);
    assert.equal(await horizontalOverflow(page), 0);
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await horizontalOverflow(page), 0);
    const phone = await tableFit(page, '#batch-table');
    assert.ok(phone.table <= phone.box, `on a phone too (${phone.table} px in ${phone.box} px)`);
    assert.deepEqual(
      errors.filter((e) => !e.includes('400')),
      [],
    );
  });

  it("should keep the contribution calls' table within its card at 1,280, a notification's result beside its buttons", { timeout: 300_000 }, async (t) => {
    const { app, soleil, staff, call } = await operator(t);
    const lumiere = await createOrg(app.database.db, 'Compagnie Lumière des Arts de la Rue', 'CLU002');
    const lines = [
      { organism: 'URSSAF', amount: '1842.60' },
      { organism: 'AUDIENS', amount: '412.35' },
      { organism: 'CONGES_SPECTACLES', amount: '356.00' },
      { organism: 'FRANCE_TRAVAIL', amount: '98.40' },
      { organism: 'AFDAS', amount: '27.10' },
    ];
    await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { email_notifs: ['compta@soleil.example'] });
    const paid = await call(staff, 'POST', '/api/staff/cotisations', { org_id: soleil, period: '2026-10', due_date: '2026-11-15', lines });
    await call(staff, 'POST', `/api/staff/cotisations/${paid.id}/paye`, { paid_date: todayInFrance() });
    const notified = await call(staff, 'POST', '/api/staff/cotisations', { org_id: soleil, period: '2026-11', due_date: '2026-12-15', lines });
    await call(staff, 'POST', '/api/staff/cotisations', { org_id: lumiere, period: '2026-11', due_date: '2026-12-15', lines });
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/staff/cotisations`);
    await page
      .locator(`tr[data-call-id="${notified.id}"]`)
      .getByRole('button', { name: /^Notifier/ })
      .click();
    await page.locator(`tr[data-call-id="${notified.id}"] .row-result`, { hasText: 'Notifié' }).waitFor();
    const row = page.locator('#call-table tbody tr', { hasText: 'Compagnie Lumière des Arts de la Rue' });
    await row.getByRole('button', { name: /^Notifier/ }).click();
    await row.getByText('Non envoyé : aucune adresse de notification.').waitFor();
    const fit = await tableFit(page, '#call-table');
    assert.ok(fit.table <= fit.box, `the calls' table (${fit.table} px) fits its card (${fit.box} px)`);
    assert.deepEqual(await texts(page, '#call-table thead th'), [
      'Référence',
      'Organisation',
      'Période',
      'Échéance',
      'Organismes',
      'Total',
      'Statut',
      'Notifié',
      'Actions',
    ]);
    assert.equal(await row.locator('td[data-label="Actions"] a').textContent(), 'Compléter la fiche de Compagnie Lumière des Arts de la Rue');
    assert.equal(await horizontalOverflow(page), 0);
    await page.setViewportSize({ width: 390, height: 844 });
    const phone = await tableFit(page, '#call-table');
    assert.ok(phone.table <= phone.box, `on a phone too (${phone.table} px in ${phone.box} px)`);
    assert.equal(await horizontalOverflow(page), 0);
    assert.deepEqual(
      errors.filter((e) => !e.includes('409') && !e.includes('422')),
      [],
    );
  });

  it("should say a payslip's transfer in words that fit: wrapped on the month page, 'En cours' on the organization's", { timeout: 300_000 }, async (t) => {
    const { app, soleil, staff, admin, marc, call } = await operator(t);
    const slip = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: marc,
      period: THIS_MONTH,
      gross: '1000.00',
      net_to_pay: '800.00',
    });
    await call(staff, 'POST', '/api/staff/virements', { payslip_ids: [slip.id], execution_date: inDays(2) });
    // The badge's right edge and its cell's: a badge wider than its cell is cut by the card.
    const badgeFit = (page: Page, selector: string) =>
      page.locator(selector).evaluate((badge) => ({
        badge: Math.round(badge.getBoundingClientRect().right),
        cell: Math.round(badge.closest('td')!.getBoundingClientRect().right),
      }));
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/staff/paie?org_id=${soleil}&period=${THIS_MONTH.slice(5, 7)}/${THIS_MONTH.slice(0, 4)}`);
    const badge = '#payslip-table [data-transfer-status="genere"]';
    assert.equal(await page.locator(badge).textContent(), 'Virement préparé : le fichier SEPA est prêt, pas encore exécuté');
    const width = await page.locator(badge).evaluate((b) => Math.round(b.getBoundingClientRect().width));
    assert.ok(width <= 280, `the badge (${width} px) wraps rather than stretching its column`);
    await page.setViewportSize({ width: 390, height: 844 });
    const phone = await badgeFit(page, badge);
    assert.ok(phone.badge <= phone.cell, `the badge (right edge ${phone.badge} px) stays within its cell (${phone.cell} px)`);
    const [published, transfer] = await page
      .locator('#payslip-table td[data-label="Statut"] .badge')
      .evaluateAll((badges) => badges.map((b) => Math.round(b.getBoundingClientRect().left)));
    assert.equal(transfer, published, 'under "Publié", in the value\'s column, not under the label');

    const client = await signedInPage(browser(), app, admin, t);
    await client.page.setViewportSize({ width: 390, height: 844 });
    await client.page.goto(`${app.url}/paie`);
    assert.equal(await client.page.locator('table.payslips td[data-label="Virement"] .badge').textContent(), 'En cours');
    const clientFit = await badgeFit(client.page, 'table.payslips td[data-label="Virement"] .badge');
    assert.ok(clientFit.badge <= clientFit.cell, `the organization's badge (${clientFit.badge} px) fits its cell (${clientFit.cell} px)`);
    assert.deepEqual([...errors, ...client.errors], []);
  });

  it('should show every select whole: the settings, a date line, the invoice type filter', { timeout: 300_000 }, async (t) => {
    const { app, soleil, staff, admin } = await operator(t);
    const staffPage = (await signedInPage(browser(), app, staff, t)).page;
    await staffPage.setViewportSize({ width: 1280, height: 900 });
    await staffPage.goto(`${app.url}/staff/organisations/${soleil}`);
    assert.equal(await staffPage.locator('#org-convention option:checked').textContent(), 'Spectacle vivant privé (SVP)');
    assert.deepEqual(await cutSelects(staffPage), []);
    await staffPage.goto(`${app.url}/staff/facturation?invoice_type=frais_ouverture`);
    assert.deepEqual(await cutSelects(staffPage), []);

    const { page, errors } = await signedInPage(browser(), app, admin, t);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/contrats/nouveau`);
    await page.locator('#contract-start_date').fill('01/03/2027');
    await page.locator('#contract-end_date').fill('31/03/2027');
    await page.locator('#add-line').click();
    assert.equal(await page.locator('#line-nature-1 option:checked').textContent(), 'Représentation');
    assert.deepEqual(await cutSelects(page), []);
    assert.deepEqual(errors, []);
  });

  it("should create the month's invoices proposed from its payslips, each counting its own, then empty the form", { timeout: 300_000 }, async (t) => {
    const { app, soleil, staff, helene, marc, call } = await operator(t);
    for (const employee_id of [helene, marc])
      await call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id, period: THIS_MONTH, gross: '1000.00', net_to_pay: '800.00' });
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/staff/facturation`);
    await page.locator('#propose-month').fill(`${THIS_MONTH.slice(5, 7)}/${THIS_MONTH.slice(0, 4)}`);
    await Promise.all([page.waitForURL(/paie=/), page.locator('#propose-submit').click()]);
    assert.equal(await page.locator(`#create-org-${soleil}`).isChecked(), true);
    assert.equal(await page.locator('#create-period').inputValue(), monthFr(THIS_MONTH));
    await page.getByLabel('Prix unitaire HT de la ligne 1 (€)').fill('12,50');
    await page.locator('#create-invoices-submit').click();
    // 2 bulletins × 12,50 € HT = 25,00 € HT, 30,00 € TTC.
    await page.locator('#created-invoices li', { hasText: `Théâtre du Soleil, 30,00${NBSP}€ TTC` }).waitFor();
    const [invoice] = await app.database.db.selectFrom('invoices').select(['lines', 'period_label']).execute();
    assert.deepEqual(invoice!.lines, [{ label: `Bulletins de paie, ${monthFr(THIS_MONTH)}`, quantity: '2', unit_price: '12.50', vat_rate: '20.00' }]);
    assert.equal(invoice!.period_label, monthFr(THIS_MONTH));
    assert.equal(await page.locator(`#create-org-${soleil}`).isChecked(), false);
    assert.equal(await page.locator('#create-period').inputValue(), '');
    assert.ok(!page.url().includes('paie='), 'a reload proposes nothing again');
    await page.locator('#create-invoices-submit').click();
    await page.locator('#create-orgs-error', { hasText: 'Cochez au moins une organisation.' }).waitFor();
    assert.equal(
      await app.database.db
        .selectFrom('invoices')
        .select('id')
        .execute()
        .then((r) => r.length),
      1,
      'a second click creates nothing',
    );
    assert.deepEqual(errors, []);
  });
});
