/**
 * Contribution calls in a real browser: a staff member creates a contribution call in the page, notifies
 * it (the e-mail is received), marks it paid after confirming; creates a month's invoices for two
 * organizations and reads their numbers; notifies them; issues a credit note, refused beyond the
 * invoice's total. On a desktop and on a phone; a client ADMIN may not open the page.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { OPERATOR_ENV } from '../payslips/support.ts';
import { addDays } from '../../src/format/calendar.ts';
import { formatDateFr, todayInFrance } from '../../src/format/french.ts';
import { horizontalOverflow, mailTo, screenshot, signedInPage, skipReason, startApp, suiteBrowser, type TestContext, texts } from './support.ts';

const NBSP = '\u00a0';

async function operator(t: TestContext) {
  const app = await startApp(t, OPERATOR_ENV);
  const db = app.database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const staff = await signedIn(app.app, db, 'camille@operateur.example', { staff: 'STAFF', metadata: { first_name: 'Camille' } });
  const admin = await member(app.app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const call = async (who: Person, method: 'POST' | 'PATCH', url: string, payload: object) => {
    const res = await app.app.inject({ method, url, headers: { cookie: who.cookie }, payload });
    assert.ok(res.statusCode < 300, res.body);
    return res.json();
  };
  // Le Soleil is told by e-mail; La Lumière has no notification address yet.
  await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { email_notifs: ['compta@soleil.example'] });
  return { app, db, soleil, lumiere, staff, admin, call };
}

const today = todayInFrance();
const todayFr = formatDateFr(today);
const year = today.slice(0, 4);

describe('staff contribution calls and invoice creation in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it('should let staff create a contribution call, notify it by e-mail and mark it paid after confirming', { timeout: 300_000 }, async (t) => {
    const { app, soleil, lumiere, staff, call } = await operator(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/staff/cotisations`);
    assert.equal(await page.locator('h1').textContent(), 'Cotisations');
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
    assert.equal(await page.locator('#calls').getByText('Aucun appel de cotisations pour le moment.').count(), 1);

    // The call of November for Le Soleil; a wrong period is refused next to its field.
    await page.locator('#call-org').selectOption(soleil);
    await page.locator('#call-period').fill('13/2026');
    await page.locator('#call-due').fill('15/12/2026');
    await page.getByLabel('Montant Urssaf (€)').fill('1 234,56');
    await page.getByLabel('Montant Congés Spectacles (€)').fill('455');
    assert.equal(await page.locator('#call-total').textContent(), `1${NBSP}689,56${NBSP}€`);
    await page.locator('#create-call').click();
    await page.locator('#call-period-error', { hasText: "13/2026 n'existe pas : le mois va de 01 à 12. Saisissez une période au format MM/AAAA." }).waitFor();
    assert.equal(await page.locator('#call-period').getAttribute('aria-invalid'), 'true');
    await page.locator('#call-period').fill('11/2026');
    await page.locator('#create-call').click();
    await page
      .locator('#call-status', { hasText: `Appel de cotisations créé pour Théâtre du Soleil (TDS001) : novembre 2026, 1${NBSP}689,56${NBSP}€.` })
      .waitFor();
    assert.equal(await page.locator('#call-period-error').isHidden(), true);
    assert.equal(await page.locator('#call-total').textContent(), `0,00${NBSP}€`, 'the form is emptied');
    assert.deepEqual(await texts(page, '#call-table tbody td[data-label="Organisation"]'), ['Théâtre du Soleil']);
    assert.deepEqual(await texts(page, '#call-table tbody .call-organisms li'), [`Urssaf : 1${NBSP}234,56${NBSP}€`, `Congés Spectacles : 455,00${NBSP}€`]);
    assert.deepEqual(await texts(page, '#call-table tbody td[data-label="Échéance"]'), ['15/12/2026']);
    assert.deepEqual(await texts(page, '#call-table tbody td[data-label="Statut"]'), ['À payer']);

    // La Lumière's call (made through the API) cannot be notified: the way to its page is given.
    const other = await call(staff, 'POST', '/api/staff/cotisations', {
      org_id: lumiere,
      period: '2026-10',
      due_date: '2026-11-15',
      lines: [{ organism: 'AFDAS', amount: '42.50' }],
    });
    await page.reload();
    const lumiereRow = page.locator(`tr[data-call-id="${other.id}"]`);
    await lumiereRow.getByRole('button', { name: /^Notifier/ }).click();
    await lumiereRow.locator('.row-result', { hasText: 'Non envoyé : aucune adresse de notification.' }).waitFor();
    assert.equal(
      await lumiereRow.getByRole('link', { name: 'Compléter la fiche de Compagnie Lumière' }).getAttribute('href'),
      `/staff/organisations/${lumiere}`,
    );

    // Le Soleil's is e-mailed to its address, in French.
    const soleilRow = page.locator('#call-table tbody tr').first();
    const soleilId = await soleilRow.getAttribute('data-call-id');
    await soleilRow.getByRole('button', { name: /^Notifier/ }).click();
    await page.locator('#calls-status', { hasText: 'Appel de novembre 2026 notifié à Théâtre du Soleil par e-mail.' }).waitFor();
    const row = page.locator(`tr[data-call-id="${soleilId}"]`);
    assert.equal(await row.locator('.notified').textContent(), `Oui, le ${todayFr}`);
    assert.equal(await row.locator('.row-result').textContent(), 'Notifié');
    const mail = await mailTo(app.smtp, 'compta@soleil.example', `Appel de cotisations AC-${year}-000001 de novembre 2026 : 1${NBSP}689,56${NBSP}€`);
    assert.ok(mail.text.includes(`Urssaf : 1${NBSP}234,56${NBSP}€`), mail.text);
    assert.ok(mail.text.includes('Échéance : 15/12/2026'), mail.text);
    assert.ok(mail.text.includes(`${app.url}/factures#calls`), mail.text);

    // Paid: nothing changes until confirmed; a date in the future is refused in the dialog.
    await row.getByRole('button', { name: /^Marquer payé/ }).click();
    const dialog = page.locator('#confirm-paid');
    await dialog.waitFor();
    assert.match(
      (await dialog.locator('#confirm-paid-text').textContent())!,
      /L'appel de novembre 2026 de Théâtre du Soleil \(1\u00a0689,56\u00a0€\) passera au statut « Payé »/,
    );
    assert.equal(await page.locator('#paid-date').inputValue(), todayFr);
    await dialog.getByRole('button', { name: 'Ne rien changer' }).click();
    assert.deepEqual(await texts(page, `tr[data-call-id="${soleilId}"] td[data-label="Statut"]`), ['À payer']);
    await row.getByRole('button', { name: /^Marquer payé/ }).click();
    await page.locator('#paid-date').fill(formatDateFr(addDays(today, 1)));
    await dialog.getByRole('button', { name: 'Marquer payé' }).click();
    await page.locator('#paid-date-error', { hasText: 'La date de paiement ne peut être dans le futur' }).waitFor();
    assert.equal(await dialog.evaluate((d) => (d as HTMLDialogElement).open), true, 'asked again');
    await page.locator('#paid-date').fill(todayFr);
    await dialog.getByRole('button', { name: 'Marquer payé' }).click();
    await page.locator('#calls-status', { hasText: `Appel de novembre 2026 de Théâtre du Soleil marqué payé le ${todayFr}.` }).waitFor();
    assert.deepEqual(await texts(page, `tr[data-call-id="${soleilId}"] td[data-label="Statut"]`), ['Payé']);
    assert.deepEqual(await texts(page, `tr[data-call-id="${soleilId}"] td[data-label="Actions"]`), [`Payé le ${todayFr}`]);
    await screenshot(page, 'staff-cotisations-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'staff-cotisations-390');
    assert.deepEqual(errors, []);
  });

  it("should let staff create a month's invoices for two organizations, see their numbers, notify them, and issue a credit note refused beyond the invoice", {
    timeout: 300_000,
  }, async (t) => {
    const { app, soleil, lumiere, staff } = await operator(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/staff/facturation`);
    assert.equal(await page.locator('#credit-note').getByText('Aucune facture sur cette page.').count(), 1);

    await page.locator(`#create-org-${soleil}`).check();
    await page.locator(`#create-org-${lumiere}`).check();
    await page.locator('#create-period').fill('novembre 2026');
    assert.equal(await page.locator('#create-issue').inputValue(), todayFr, 'issued today by default');
    await page.getByLabel('Libellé de la ligne 1').fill('Gestion de la paie');
    await page.getByLabel('Quantité de la ligne 1').fill('12');
    await page.getByLabel('Prix unitaire HT de la ligne 1 (€)').fill('85,00');
    await page.locator('#add-invoice-line').click();
    await page.getByLabel('Libellé de la ligne 2').fill('Déclarations sociales');
    await page.getByLabel('Prix unitaire HT de la ligne 2 (€)').fill('deux cents');
    await page.locator('#create-invoices-submit').click();
    await page.locator('#create-lines-error', { hasText: 'Ligne 2 : Montant invalide' }).waitFor();
    assert.equal(await page.getByLabel('Prix unitaire HT de la ligne 2 (€)').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Prix unitaire HT de la ligne 2 (€)').fill('214,58');
    await page.locator('#create-invoices-submit').click();
    await page.locator('#create-status', { hasText: `2 factures créées : F-${year}-000001, F-${year}-000002.` }).waitFor();
    // 12 × 85 + 214,58 = 1 234,58 € HT, 1 481,50 € TTC each.
    // Numbered in the order of the list (by name).
    assert.deepEqual(await texts(page, '#created-invoices li'), [
      `F-${year}-000001 : Compagnie Lumière, 1${NBSP}481,50${NBSP}€ TTC`,
      `F-${year}-000002 : Théâtre du Soleil, 1${NBSP}481,50${NBSP}€ TTC`,
    ]);
    assert.equal(await page.locator('#create-lines-error').isHidden(), true);
    // Emptied once created: a second click cannot invoice the same organizations again.
    assert.equal(await page.locator('input.org-choice:checked').count(), 0);
    assert.deepEqual(
      [
        await page.locator('#create-period').inputValue(),
        await page.locator('#invoice-lines tr').count(),
        await page.getByLabel('Libellé de la ligne 1').inputValue(),
      ],
      ['', 1, ''],
    );
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Numéro"]'), [`F-${year}-000002`, `F-${year}-000001`]);
    assert.deepEqual(await texts(page, '#invoice-table tbody td[data-label="Période"]'), ['novembre 2026', 'novembre 2026']);
    await screenshot(page, 'staff-facturation-create-1280');

    // The list read again still notifies, once the invoices' documents are made by their jobs
    // (as the server's worker does meanwhile).
    assert.equal(await app.app.jobs.worker.runDue(), 2);
    await page.locator('#select-all').check();
    await page.locator('#notify-selected').click();
    await page.locator('#notify-status', { hasText: '1 facture notifiée, 1 non envoyée.' }).waitFor();
    await mailTo(app.smtp, 'compta@soleil.example', `Votre facture F-${year}-000002 est disponible`);

    // A credit note beyond the invoice is refused next to the amount, in French; within it, issued.
    await page.locator('#credit-invoice').selectOption({ label: `F-${year}-000002 · Théâtre du Soleil · 1${NBSP}481,50${NBSP}€ TTC` });
    await page.locator('#credit-reason').fill('Erreur de quantité');
    await page.locator('#credit-amount').fill('2 000');
    await page.locator('#credit-submit').click();
    assert.equal(
      await page.locator('#confirm-credit-text').textContent(),
      `2 000 € HT à créditer sur F-${year}-000002 · Théâtre du Soleil · 1${NBSP}481,50${NBSP}€ TTC. Motif : Erreur de quantité. Un avoir émis est numéroté et ne peut plus être modifié ni supprimé.`,
    );
    await page.locator('#confirm-credit-ok').click();
    await page
      .locator('#credit-amount-error', {
        hasText: `Ce montant dépasse ce qui reste à créditer sur la facture F-${year}-000002 : 1${NBSP}481,50${NBSP}€ TTC au plus.`,
      })
      .waitFor();
    assert.equal(await page.locator('#credit-amount').getAttribute('aria-invalid'), 'true');
    await page.locator('#credit-amount').fill('100');
    await page.locator('#credit-submit').click();
    await page.locator('#confirm-credit-ok').click();
    await page.locator('#credit-status', { hasText: `Avoir A-${year}-000001 émis sur la facture F-${year}-000002 : 120,00${NBSP}€ TTC.` }).waitFor();
    assert.ok((await texts(page, '#invoice-table tbody td[data-label="Numéro"]')).includes(`A-${year}-000001`), 'the credit note is listed');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.url}/staff/facturation`);
    assert.equal(await horizontalOverflow(page), 0);
    await page.locator('#create-invoices').scrollIntoViewIfNeeded();
    await screenshot(page, 'staff-facturation-create-390');
    assert.deepEqual(errors, []);
  });

  it('should neither offer nor open /staff/cotisations to a client ADMIN', { timeout: 120_000 }, async (t) => {
    const { app, admin } = await operator(t);
    const { page, errors } = await signedInPage(browser(), app, admin, t);
    await page.goto(`${app.url}/vos-acces`);
    assert.deepEqual(await texts(page, '.main-nav a'), ['Contrats', 'Paie', 'Factures', 'Accès']);
    const response = await page.goto(`${app.url}/staff/cotisations`);
    assert.equal(response?.status(), 403);
    assert.equal(await page.locator('h1').textContent(), "Vous n'avez pas accès à cette page", 'the French refusal page (refusals.e2e.test.ts)');
    assert.deepEqual(
      errors.filter((e) => !e.includes('403')),
      [],
    );
  });
});
