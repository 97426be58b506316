/**
 * The staff's money pages in a real browser: a staff member notifies a month's
 * invoices in bulk and reads the result per invoice, then turns available payslips into a
 * transfer batch, downloads its SEPA file and marks it executed; with the keyboard, on a
 * desktop and on a phone. A client ADMIN may not open them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { IBAN, OPERATOR_ENV } from '../payslips/support.ts';
import {
  horizontalOverflow,
  mailTo,
  screenshot,
  signedInPage,
  skipReason,
  startApp,
  suiteBrowser,
  type TestContext,
  tabTo,
  texts,
  focusedId,
} from './support.ts';

const NBSP = '\u00a0';

/** Two organizations whose salaries the operator pays; March invoices and payslips made through the staff APIs. */
async function payroll(t: TestContext) {
  const app = await startApp(t, OPERATOR_ENV);
  const db = app.database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const staff = await signedIn(app.app, db, 'camille@operateur.example', { staff: 'STAFF', metadata: { first_name: 'Camille' } });
  const admin = await member(app.app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const lumiereAdmin = await member(app.app, db, lumiere, 'admin@lumiere.example', 'ADMIN');
  const call = async (who: Person, method: 'POST' | 'PATCH', url: string, payload: object) => {
    const res = await app.app.inject({ method, url, headers: { cookie: who.cookie }, payload });
    assert.ok(res.statusCode < 300, res.body);
    return res.json();
  };
  // Le Soleil receives its invoices; La Lumière has no notification address yet.
  await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { email_notifs: ['compta@soleil.example'], virements_salaires: 'Odentas' });
  await call(staff, 'PATCH', `/api/staff/orgs/${lumiere}`, { virements_salaires: 'Odentas' });
  const lines = [
    { label: 'Gestion de la paie, mars 2026', quantity: 12, unit_price: '85.00', vat_rate: '20' },
    { label: 'Déclarations sociales', quantity: 1, unit_price: '214.58', vat_rate: '20' },
  ];
  const march = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
    invoice_type: 'paie_mensuelle',
    payment_method: 'prelevement',
    period_label: 'mars 2026',
    issue_date: '2026-03-31',
    due_date: '2026-04-15',
    invoices: [
      { org_id: soleil, lines },
      { org_id: lumiere, lines: [{ label: 'Gestion de la paie, mars 2026', quantity: 3, unit_price: '85.00', vat_rate: '20' }] },
    ],
  });
  await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
    // Issued after March's: an invoice is never dated before the last one.
    invoice_type: 'frais_ouverture',
    payment_method: 'virement',
    issue_date: '2026-04-02',
    invoices: [{ org_id: lumiere, lines: [{ label: 'Ouverture du dossier', quantity: 1, unit_price: '150', vat_rate: '20' }] }],
  });
  const helene = (await call(admin, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', iban: IBAN.helene, bic: 'AGRIFRPP' })).id;
  const marc = (await call(admin, 'POST', '/api/salaries', { first_name: 'Marc', last_name: 'Dupont', iban: IBAN.marc })).id;
  const leonie = (await call(lumiereAdmin, 'POST', '/api/salaries', { first_name: 'Léonie', last_name: 'Faure', iban: IBAN.leonie })).id;
  await call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: helene, period: '2027-03', gross: '2700.00', net_to_pay: '2104.50' });
  await call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: marc, period: '2027-03', gross: '2300.00', net_to_pay: '1830.00' });
  await call(staff, 'POST', '/api/staff/payslips', { org_id: lumiere, employee_id: leonie, period: '2027-03', gross: '1600.00', net_to_pay: '1234.50' });
  const [soleilInvoice, lumiereInvoice] = march.created as Array<{ id: string; number: string }>;
  // The invoices' documents, made by their jobs (as the server's worker would).
  await app.app.jobs.worker.runDue();
  return { app, db, soleil, lumiere, staff, admin, soleilInvoice: soleilInvoice!, lumiereInvoice: lumiereInvoice! };
}

/** Today in Paris as the pages write it. */
const todayFr = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());

describe('staff money pages in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it("should let staff notify a month's invoices and see each result, then pay payslips by a SEPA batch, with the keyboard", {
    timeout: 400_000,
  }, async (t) => {
    const { app, staff, lumiere, soleilInvoice, lumiereInvoice } = await payroll(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);

    // Every organization's invoices, newest number first, in French; no active organization needed.
    await page.goto(`${app.url}/staff/facturation`);
    assert.equal(await page.locator('h1').textContent(), 'Facturation');
    assert.deepEqual(await texts(page, '.main-nav a'), [
      'Organisations',
      'Contrats',
      'Paie',
      'Virements',
      'Cotisations',
      'Facturation',
      'Travaux en échec',
      'Accès',
      'Équipe interne',
      'Opérateur',
    ]);
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Numéro"]'), ['F-2026-000003', lumiereInvoice.number, soleilInvoice.number]);
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Type"]'), ["Frais d'ouverture", 'Paie mensuelle', 'Paie mensuelle']);
    // 12 × 85 + 214,58 = 1 234,58 € HT, 1 481,50 € TTC.
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Total TTC"]'), [`180,00${NBSP}€`, `306,00${NBSP}€`, `1${NBSP}481,50${NBSP}€`]);
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Émise le"]'), ['02/04/2026', '31/03/2026', '31/03/2026']);
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Notifiée"]'), ['Non', 'Non', 'Non']);
    await screenshot(page, 'staff-facturation');

    // The month's payroll invoices not yet notified, chosen with the keyboard.
    await page.locator('#filter-notified').focus();
    await page.keyboard.press('ArrowDown'); // Non notifiées
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown'); // Paie mensuelle
    await tabTo(page, 'filter-submit');
    await Promise.all([page.waitForURL(/notified=false.*invoice_type=paie_mensuelle/), page.keyboard.press('Enter')]);
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Organisation"]'), ['Compagnie Lumière', 'Théâtre du Soleil']);
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Période"]'), ['mars 2026', 'mars 2026']);

    // Select both (the page's box, with Space), then notify with Enter.
    await tabTo(page, 'select-all');
    await page.keyboard.press('Space');
    assert.equal(await page.locator('#selection-count').textContent(), '2 factures sélectionnées.');
    await tabTo(page, 'notify-selected');
    await page.keyboard.press('Enter');
    await page.locator('#notify-status', { hasText: '1 facture notifiée, 1 non envoyée.' }).waitFor();
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Envoi"]'), ['Non envoyée : aucune adresse de notification', 'Notifiée']);
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Notifiée"]'), ['Non', `Oui, le ${todayFr()}`]);
    assert.deepEqual(await texts(page, '#notify-details li'), [`${lumiereInvoice.number} : aucune adresse de notification`]);
    // The reason leads to the organization's page, where its addresses are set.
    assert.equal(await page.locator('#invoice-table tbody td[data-label="Envoi"] a').getAttribute('href'), `/staff/organisations/${lumiere}`);
    assert.equal(await page.locator('#notify-details li a').getAttribute('href'), `/staff/organisations/${lumiere}`);
    assert.equal(await page.locator('#select-all').isChecked(), false, 'the selection is cleared');
    const mail = await mailTo(app.smtp, 'compta@soleil.example', `Votre facture ${soleilInvoice.number} est disponible`);
    assert.match(mail.text, /mars 2026/);
    assert.match(mail.text, new RegExp(`1${NBSP}481,50${NBSP}€`));
    await screenshot(page, 'staff-facturation-result');

    // Notified again: refused as already notified, unless forced.
    await page.locator(`#select-${soleilInvoice.id}`).check();
    await page.locator('#notify-selected').click();
    await page.locator('#notify-status', { hasText: 'Aucune facture notifiée, 1 non envoyée.' }).waitFor();
    assert.deepEqual(await texts(page, '#notify-details li'), [`${soleilInvoice.number} : déjà notifiée`]);

    // The invoice's PDF.
    const [pdf] = await Promise.all([
      page.waitForEvent('download', { timeout: 90_000 }),
      page.locator(`tr[data-invoice-id="${soleilInvoice.id}"] button[data-pdf-url]`).click(),
    ]);
    assert.equal(pdf.suggestedFilename(), `Facture-${soleilInvoice.number}.pdf`);

    // Payslips to pay: both organizations; a batch takes one.
    await page.goto(`${app.url}/staff/virements`);
    assert.equal(await page.locator('h1').textContent(), 'Virements des salaires');
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Salarié"]'), ['Léonie Faure', 'Marc Dupont', 'Hélène Lefèvre']);
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="IBAN"]'), ['•••• 2606', '•••• 3000', '•••• 0189']);
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Net à payer"]'), [
      `1${NBSP}234,50${NBSP}€`,
      `1${NBSP}830,00${NBSP}€`,
      `2${NBSP}104,50${NBSP}€`,
    ]);
    await page.locator('#select-all').focus();
    await page.keyboard.press('Space');
    assert.equal(await page.locator('#selection-count').textContent(), "3 bulletins sélectionnés, de 2 organisations : un lot n'en concerne qu'une.");
    await tabTo(page, 'create-transfer');
    await page.keyboard.press('Enter');
    await page
      .locator('#transfer-status', {
        hasText: "Un lot de virements ne concerne qu'une organisation : la sélection en compte 2 (Compagnie Lumière, Théâtre du Soleil).",
      })
      .waitFor();

    // Le Soleil's payslips only: uncheck La Lumière's with Space.
    await page.locator('#select-all').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    assert.equal(await page.locator('#selection-count').textContent(), '2 bulletins sélectionnés (Théâtre du Soleil).');
    assert.equal(await page.locator('#execution-date').inputValue(), todayFr(), 'today by default');
    await page.locator('#execution-date').focus();
    await page.keyboard.press('Enter');
    // March 2027's salaries paid today, months ahead: asked about first; confirmed with the keyboard.
    await page.locator('#confirm-date').waitFor();
    assert.match(
      (await page.locator('#confirm-date-text').textContent())!,
      /^Ces bulletins paient mars 2027 : une exécution le \d\d\/\d\d\/\d{4} paierait ces salaires avant le début du mois\./,
    );
    await page.keyboard.press('Tab');
    await Promise.all([page.waitForURL(/\/staff\/virements\?lot=[0-9a-f-]+$/), page.keyboard.press('Enter')]);
    const reference = (await page.locator('#created-title').textContent())!.replace(/^Lot (\S+) créé$/, '$1');
    assert.match(reference, /^VIR-\d{4}-000001$/);
    assert.equal(await focusedId(page), 'created-title');
    assert.equal(
      await page.locator('#created-summary').textContent(),
      `Théâtre du Soleil : 2 virements, total 3${NBSP}934,50${NBSP}€, exécution le ${todayFr()}.`,
    );
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Salarié"]'), ['Léonie Faure'], 'the paid payslips are no longer offered');
    assert.deepEqual(await texts(page, '#batch-table tbody td[data-label="Statut"]'), ['Généré']);
    await screenshot(page, 'staff-virements');

    // The SEPA file.
    await page.locator('#created-download').focus();
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.keyboard.press('Enter')]);
    assert.equal(file.suggestedFilename(), `${reference}.xml`);
    const xml = fs.readFileSync((await file.path())!, 'utf8');
    assert.match(xml, /urn:iso:std:iso:20022:tech:xsd:pain\.001\.001\.03/);
    assert.equal(xml.match(/<NbOfTxs>(\d+)<\/NbOfTxs>/)?.[1], '2');
    assert.match(xml, /<CtrlSum>3934\.50<\/CtrlSum>/);
    await page.locator('#created-status', { hasText: `Fichier ${reference}.xml téléchargé` }).waitFor();

    // Executed: no more actions but the file.
    await page.getByRole('button', { name: `Marquer exécuté : lot ${reference}` }).click();
    // A confirmation first, as "Annuler" asks.
    await page.locator('#confirm-executed').getByRole('button', { name: 'Marquer exécuté' }).click();
    await page.locator('#batches-status', { hasText: `Lot ${reference} marqué exécuté.` }).waitFor();
    assert.deepEqual(await texts(page, '#batch-table tbody td[data-label="Statut"]'), ['Exécuté']);
    assert.equal(await page.locator('#batch-table button[data-action]').count(), 0);
    assert.equal(await focusedId(page), 'batches-title');

    assert.deepEqual(errors, []);
  });

  it('should mark a payslip taken meanwhile (409 payslip_unavailable) in its row, and cancel a batch after a confirmation', async (t) => {
    const { app, staff, soleil } = await payroll(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.goto(`${app.url}/staff/virements?org_id=${soleil}`);
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Salarié"]'), ['Marc Dupont', 'Hélène Lefèvre']);
    await page.locator('#select-all').check();
    // Another staff member pays Hélène's payslip first.
    const taken = await page.locator('#payslip-table tbody tr').nth(1).getAttribute('data-payslip-id');
    const other = await app.app.inject({
      method: 'POST',
      url: '/api/staff/virements',
      headers: { cookie: staff.cookie },
      payload: { payslip_ids: [taken], execution_date: new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date()) },
    });
    assert.equal(other.statusCode, 201, other.body);
    await page.locator('#create-transfer').click();
    await page.locator('#confirm-date-ok').click();
    await page.locator('#transfer-status', { hasText: 'Ces bulletins ne peuvent pas être payés par virement' }).waitFor();
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="État"]'), ['—', 'Indisponible']);

    // That batch, cancelled: Escape keeps it, the dialog's button cancels it.
    await page.reload();
    const cancel = page.getByRole('button', { name: `Annuler le lot ${other.json().reference}` });
    await cancel.click();
    assert.equal(await page.locator('#confirm-cancel').isVisible(), true);
    await page.keyboard.press('Escape');
    assert.deepEqual(await texts(page, '#batch-table tbody td[data-label="Statut"]'), ['Généré']);
    await cancel.click();
    await page.locator('#confirm-cancel').getByRole('button', { name: 'Annuler le lot' }).click();
    await page.locator('#batches-status', { hasText: `Lot ${other.json().reference} annulé : ses bulletins sont de nouveau à payer.` }).waitFor();
    assert.deepEqual(await texts(page, '#batch-table tbody td[data-label="Statut"]'), ['Annulé']);
    assert.deepEqual(await texts(page, '#payslip-table tbody td[data-label="Salarié"]'), ['Marc Dupont', 'Hélène Lefèvre'], 'her payslip is to pay again');
    assert.deepEqual(errors, []);
  });

  it('should fit a phone: both pages without sideways scrolling', async (t) => {
    const { app, staff } = await payroll(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.url}/staff/facturation`);
    assert.equal(await horizontalOverflow(page), 0);
    await page.goto(`${app.url}/staff/virements`);
    await page.locator('#select-all').check();
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'staff-virements-phone');
    assert.deepEqual(errors, []);
  });

  it('should neither offer nor open the staff pages to a client ADMIN', async (t) => {
    const { app, admin } = await payroll(t);
    const { page, errors } = await signedInPage(browser(), app, admin, t);
    await page.goto(`${app.url}/vos-acces`);
    assert.deepEqual(await texts(page, '.main-nav a'), ['Contrats', 'Paie', 'Factures', 'Accès']);
    for (const path of ['/staff/facturation', '/staff/virements']) {
      const response = await page.goto(`${app.url}${path}`);
      assert.equal(response?.status(), 403);
      assert.equal(await page.locator('h1').textContent(), "Vous n'avez pas accès à cette page", 'the French refusal page (refusals.e2e.test.ts)');
    }
    assert.deepEqual(
      errors.filter((e) => !e.includes('403')),
      [],
    );
  });
});
