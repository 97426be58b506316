/**
 * The contract pages in a real browser: an AGENT's day without the API, with the
 * keyboard, on a desktop and on a phone; a COMPTA who may not open them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrg, member, type Person } from '../support/fixtures.ts';
import { pdfText } from '../support/documents.ts';
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

/** An organization with an agent, a COMPTA, two employees and three contracts made through the API. */
async function organization(t: TestContext) {
  const app = await startApp(t);
  const db = app.database.db;
  const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const agent = await member(app.app, db, orgId, 'ines.agent@soleil.example', 'AGENT', { metadata: { first_name: 'Inès' } });
  const compta = await member(app.app, db, orgId, 'compta@soleil.example', 'COMPTA', { metadata: { first_name: 'Marc' } });
  const call = async (who: Person, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, res.body);
    return res.json();
  };
  const helene = (await call(agent, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', category: 'artiste' })).id;
  const paul = (await call(agent, 'POST', '/api/salaries', { first_name: 'Paul', last_name: 'Martin-Delacroix' })).id;
  await call(agent, 'POST', '/api/contrats', {
    employee_id: paul,
    kind: 'CDD',
    job_title: 'Régisseur lumière',
    show_title: 'Tournée de printemps',
    idcc: '3090',
    start_date: '2027-04-01',
    end_date: '2027-06-30',
    monthly_gross: '2450.00',
  });
  const signed = await call(agent, 'POST', '/api/contrats', {
    employee_id: helene,
    kind: 'CDI',
    job_title: 'Administratrice',
    start_date: '2027-01-04',
    monthly_gross: '3100',
  });
  await call(agent, 'POST', `/api/contrats/${signed.id}/submit`);
  const cancelled = await call(agent, 'POST', '/api/contrats', {
    employee_id: paul,
    kind: 'CDDU',
    job_title: 'Musicien',
    show_title: 'Concert annulé',
    start_date: '2027-02-10',
    end_date: '2027-02-12',
    dates: [{ date: '2027-02-11', nature: 'representation', quantity: 1, amount: '250' }],
  });
  await call(agent, 'POST', `/api/contrats/${cancelled.id}/cancel`);
  return { app, db, orgId, agent, compta };
}

describe('contract pages in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it('should let an AGENT find a contract, create and edit a draft with its dates, add a note and get the PDF, with the keyboard', {
    timeout: 400_000,
  }, async (t) => {
    const { app, agent } = await organization(t);
    const { page, errors } = await signedInPage(browser(), app, agent, t);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'contrats-e2e-'));
    t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

    // The grid: newest start first, French dates and amounts, status badges; the bar offers what an AGENT may open.
    await page.goto(`${app.url}/contrats`);
    assert.equal(await page.locator('h1').textContent(), 'Contrats');
    assert.deepEqual(await texts(page, '.main-nav a'), ['Contrats', 'Paie', 'Accès']);
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Salarié"]'), ['Paul Martin-Delacroix', 'Paul Martin-Delacroix', 'Hélène Lefèvre']);
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Statut"]'), ['Brouillon', 'Annulé', 'À signer']);
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Brut total"]'), [`2${NBSP}450,00${NBSP}€`, `250,00${NBSP}€`, `3${NBSP}100,00${NBSP}€`]);
    assert.equal((await texts(page, '.grid tbody td[data-label="Période"]'))[0], '01/04/2027 → 30/06/2027');
    await screenshot(page, 'contrats-grid');

    // Search by keyboard: the name without its accents, then Enter.
    await page.locator('#filter-q').focus();
    await page.keyboard.type('lefevre');
    await Promise.all([page.waitForURL(/q=lefevre/), page.keyboard.press('Enter')]);
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Salarié"]'), ['Hélène Lefèvre']);
    assert.equal(await page.locator('#filter-q').inputValue(), 'lefevre', 'the search stays in its field');
    // A status filter, chosen with the arrow keys.
    await page.goto(`${app.url}/contrats`);
    await page.locator('#filter-status').focus();
    await page.keyboard.press('ArrowDown'); // Brouillon
    await tabTo(page, 'filter-submit');
    await Promise.all([page.waitForURL(/status=brouillon/), page.keyboard.press('Enter')]);
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Statut"]'), ['Brouillon']);

    // A new draft, entirely with the keyboard.
    await page.goto(`${app.url}/contrats`);
    await page.locator('#new-contract').focus();
    await Promise.all([page.waitForURL(`${app.url}/contrats/nouveau`), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('h1').textContent(), 'Nouveau contrat');
    await page.locator('#contract-employee_id').focus();
    await page.keyboard.press('ArrowDown'); // Lefèvre Hélène (sorted by last name)
    assert.equal(await page.locator('#contract-employee_id option:checked').textContent(), 'Lefèvre Hélène');
    await tabTo(page, 'contract-kind');
    assert.equal(await page.locator('#contract-kind').inputValue(), 'CDDU');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Comédienne');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Les Misérables');
    await page.keyboard.press('Tab');
    await page.keyboard.type('3090');
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'contract-start_date');
    await page.keyboard.type('01/03/2027');
    await tabTo(page, 'contract-end_date'); // past the date field's calendar button
    await page.keyboard.type('31/03/2027');
    assert.equal(await page.locator('#contract-start_date').inputValue(), '01/03/2027');
    assert.equal(await page.locator('#contract-end_date').inputValue(), '31/03/2027');
    assert.equal(await page.locator('#contract-monthly_gross').isVisible(), false, 'a CDDU has no monthly salary');

    // Two dates: the first line starts on the contract's first day, each new one takes the focus.
    await tabTo(page, 'add-line');
    await page.keyboard.press('Enter');
    assert.equal(await focusedId(page), 'line-date-1');
    assert.equal(await page.locator('#line-date-1').inputValue(), '01/03/2027', 'a new line suggests the first day');
    await page.keyboard.type('02/03/2027');
    await tabTo(page, 'line-nature-1');
    await page.keyboard.press('ArrowDown'); // Répétition
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1');
    await page.keyboard.press('Tab');
    await page.keyboard.type('180');
    await tabTo(page, 'add-line');
    await page.keyboard.press('Enter');
    assert.equal(await focusedId(page), 'line-date-2');
    assert.equal(await page.locator('#line-date-2').inputValue(), '03/03/2027', 'a next line suggests the day after the line before');
    await page.keyboard.type('20/03/2027');
    await tabTo(page, 'line-nature-2'); // Représentation, the default
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1 054,50');
    assert.equal(await page.getByLabel('Montant brut de la ligne 2, en euros').inputValue(), '1 054,50');
    await screenshot(page, 'contrat-nouveau');
    await Promise.all([page.waitForURL(/\/contrats\/[0-9a-f-]+\?cree=1$/), page.keyboard.press('Enter')]);

    // The draft: its details, dates and total, as the server holds them.
    assert.equal((await page.locator('#status').textContent())?.trim(), 'Brouillon créé.');
    const number = (await page.locator('h1').textContent())!.replace('Contrat ', '');
    assert.match(number, /^C-\d{4}-000004$/);
    assert.equal((await page.locator('#contract-head .badge').textContent())?.trim(), 'Brouillon');
    assert.deepEqual(await texts(page, '#dates tbody tr'), [`02/03/2027 Répétition 1 180,00${NBSP}€`, `20/03/2027 Représentation 2 1${NBSP}054,50${NBSP}€`]);
    assert.equal(await page.locator('#gross-total').textContent(), `1${NBSP}234,50${NBSP}€`);
    assert.ok((await texts(page, '.details dd')).includes('du 01/03/2027 au 31/03/2027'));

    // Edit it: a third date, and a field the API refuses shown next to the field.
    await page.locator('#edit-contract').focus();
    await Promise.all([page.waitForURL(/\/modifier$/), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('#line-amount-2').inputValue(), '1054,50');
    await page.locator('#contract-show_title').fill('');
    await page.locator('#contract-show_title').press('Enter');
    await page.locator('#status', { hasText: "L'objet (spectacle) est obligatoire." }).waitFor();
    assert.equal(await focusedId(page), 'contract-show_title');
    assert.equal(await page.locator('#contract-show_title').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#contract-show_title-error').textContent(), "L'objet (spectacle) est obligatoire.");
    await screenshot(page, 'contrat-modifier-erreur');
    await page.keyboard.type('Les Misérables');
    await tabTo(page, 'add-line');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#line-date-3').inputValue(), '21/03/2027');
    await page.keyboard.type('21/03/2027');
    await tabTo(page, 'line-amount-3');
    await page.keyboard.type('462,40');
    await Promise.all([page.waitForURL(/\?modifie=1$/), page.keyboard.press('Enter')]);
    assert.equal((await page.locator('#status').textContent())?.trim(), 'Modifications enregistrées.');
    assert.equal(await page.locator('#gross-total').textContent(), `1${NBSP}696,90${NBSP}€`);
    assert.equal(await page.locator('#dates tbody tr').count(), 3);

    // A note, typed and sent with the keyboard: shown at the top, e-mailed to the payroll mailbox.
    await page.locator('#note-text').focus();
    await page.keyboard.type('Merci de vérifier le cachet du 21/03.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: 'Note ajoutée.' }).waitFor();
    assert.equal(await page.locator('.note-text').first().textContent(), 'Merci de vérifier le cachet du 21/03.');
    assert.equal(await page.locator('#note-text').inputValue(), '');
    assert.equal(await focusedId(page), 'note-text');
    const mail = await mailTo(app.smtp, 'paie@localhost', `Nouvelle note sur le contrat ${number}`);
    assert.match(mail.text, /Merci de vérifier le cachet du 21\/03\./);

    // Generate the PDF: the file downloads; then download it again.
    const [generated] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), page.locator('#generate-pdf').click()]);
    assert.equal(generated.suggestedFilename(), `${number}.pdf`);
    await generated.saveAs(path.join(tmp, 'generated.pdf'));
    const text = await pdfText(fs.readFileSync(path.join(tmp, 'generated.pdf')));
    assert.match(text, /Contrat de travail à durée déterminée d'usage/);
    assert.match(text, new RegExp(number));
    await page.locator('#status', { hasText: 'PDF du contrat' }).waitFor();
    assert.equal(await focusedId(page), 'download-pdf');
    const [again] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), page.keyboard.press('Enter')]);
    assert.equal(again.suggestedFilename(), `${number}.pdf`);

    // Submit for signature: no more edits.
    await page.locator('#submit-contract').click();
    await page.locator('#status', { hasText: `Contrat ${number} soumis pour signature.` }).waitFor();
    assert.equal((await page.locator('#contract-head .badge').textContent())?.trim(), 'À signer');
    assert.equal(await page.locator('#edit-contract').count(), 0);
    // Its PDF to sign is rendered with the submission, and the page says so.
    assert.equal((await page.locator('#pdf-state').textContent())?.trim(), 'Le contrat est à signer : son PDF est prêt, téléchargez-le pour la signature.');
    assert.equal(await focusedId(page), 'download-pdf');
    await screenshot(page, 'contrat-detail');

    // Cancel another draft, after the confirmation dialog.
    await page.goto(`${app.url}/contrats?status=brouillon`);
    await Promise.all([page.waitForURL(/\/contrats\/[0-9a-f-]+$/), page.locator('.grid tbody a').first().click()]);
    await page.locator('#cancel-contract').click();
    assert.equal(await page.locator('#confirm-cancel').isVisible(), true);
    await page.keyboard.press('Escape');
    assert.equal(await focusedId(page), 'cancel-contract', 'Escape keeps the contract and the focus');
    await page.locator('#cancel-contract').click();
    await page.getByRole('button', { name: 'Annuler le contrat' }).last().click();
    await page.locator('#status', { hasText: 'annulé.' }).waitFor();
    assert.equal((await page.locator('#contract-head .badge').textContent())?.trim(), 'Annulé');
    assert.equal(await page.locator('#contract-actions').count(), 0);

    assert.deepEqual(errors, []);
  });

  it('should fit a phone: the grid, a contract and the form without sideways scrolling', async (t) => {
    const { app, agent } = await organization(t);
    const { page, errors } = await signedInPage(browser(), app, agent, t);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.url}/contrats`);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'contrats-phone');
    await page.locator('.grid tbody a').first().click();
    await page.waitForURL(/\/contrats\/[0-9a-f-]+$/);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'contrat-phone');
    await page.goto(`${app.url}/contrats/nouveau`);
    await page.locator('#add-line').click();
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'contrat-nouveau-phone');
    assert.deepEqual(errors, []);
  });

  it('should neither offer nor open the contracts to a COMPTA', async (t) => {
    const { app, compta } = await organization(t);
    const { page, errors } = await signedInPage(browser(), app, compta, t);
    await page.goto(`${app.url}/vos-acces`);
    assert.deepEqual(await texts(page, '.main-nav a'), ['Paie', 'Factures', 'Accès']);
    const response = await page.goto(`${app.url}/contrats`);
    assert.equal(response?.status(), 403);
    assert.equal(await page.locator('h1').textContent(), "Vous n'avez pas accès à cette page", 'the French refusal page (refusals.e2e.test.ts)');
    assert.deepEqual(
      errors.filter((e) => !e.includes('403')),
      [],
    );
  });
});
