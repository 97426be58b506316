/**
 * The staff's organization pages in a real browser: a staff member finds an
 * organization by searching without accents, sets its notification address, SIRET, address and
 * payroll settings (a bad SIRET refused next to its field), sets an employee's IBAN and sees
 * only its last four characters; a client adds an employee with an IBAN from the contract form.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { IBAN, OPERATOR_ENV } from '../payslips/support.ts';
import { focusedId, horizontalOverflow, screenshot, signedInPage, skipReason, startApp, suiteBrowser, texts, type TestContext } from './support.ts';

const NBSP = '\u00a0';

async function organizations(t: TestContext) {
  const app = await startApp(t, OPERATOR_ENV);
  const db = app.database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  await createOrg(db, 'Ensemble Autonome', 'AUT003');
  const staff = await signedIn(app.app, db, 'camille@operateur.example', { staff: 'STAFF', metadata: { first_name: 'Camille' } });
  const admin = await member(app.app, db, soleil, 'admin@soleil.example', 'ADMIN');
  await member(app.app, db, lumiere, 'admin@lumiere.example', 'ADMIN');
  const call = async (who: Person, method: 'POST' | 'PATCH', url: string, payload: object) => {
    const res = await app.app.inject({ method, url, headers: { cookie: who.cookie }, payload });
    assert.ok(res.statusCode < 300, res.body);
    return res.json();
  };
  const zoe = (await call(admin, 'POST', '/api/salaries', { first_name: 'Zoé', last_name: 'Bernard' })).id as string;
  const helene = (await call(admin, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', iban: IBAN.helene, bic: 'AGRIFRPP' })).id as string;
  return { app, db, soleil, lumiere, staff, admin, zoe, helene };
}

describe('staff organization pages in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it("should let staff find an organization without accents, set its settings, see a bad SIRET refused, and set an employee's IBAN", {
    timeout: 300_000,
  }, async (t) => {
    const { app, db, soleil, staff, zoe, helene } = await organizations(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.goto(`${app.url}/staff/organisations`);
    assert.equal(await page.locator('h1').textContent(), 'Organisations');
    assert.ok((await texts(page, '.main-nav a')).includes('Organisations'));
    assert.deepEqual(await texts(page, '#org-table tbody td[data-label="Organisation"]'), ['Compagnie Lumière', 'Ensemble Autonome', 'Théâtre du Soleil']);
    await screenshot(page, 'staff-organisations-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await horizontalOverflow(page), 0, 'no horizontal scrolling on a phone');
    await screenshot(page, 'staff-organisations-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Typed without accents nor capitals.
    await page.locator('#filter-q').fill('theatre du soleil');
    await Promise.all([page.waitForURL(/\/staff\/organisations\?q=theatre/), page.locator('#filter-q').press('Enter')]);
    assert.deepEqual(await texts(page, '#org-table tbody td[data-label="Organisation"]'), ['Théâtre du Soleil']);
    await Promise.all([page.waitForURL(`${app.url}/staff/organisations/${soleil}`), page.getByRole('link', { name: 'Théâtre du Soleil' }).click()]);
    assert.equal(await page.locator('h1').textContent(), 'Théâtre du Soleil');

    // A SIRET of 13 digits: refused next to its field, which gets the focus; nothing saved.
    await page.locator('#org-email_notifs').fill('Compta@Soleil.example');
    await page.locator('#org-siret').fill('123 456 789 0001');
    await page.locator('#org-save').click();
    await page.locator('#org-siret-error', { hasText: "Le SIRET (14 chiffres) n'est pas valide." }).waitFor();
    assert.equal(await page.locator('#org-siret').getAttribute('aria-invalid'), 'true');
    assert.equal(await focusedId(page), 'org-siret');
    assert.equal((await db.selectFrom('organizations').select('email_notifs').where('id', '=', soleil).executeTakeFirstOrThrow()).email_notifs.length, 0);

    await page.locator('#org-siret').fill('123 456 789 00012');
    await page.locator('#org-email_notifs_cc').fill('direction@soleil.example');
    await page.locator('#org-address_line').fill('3 place du Théâtre');
    await page.locator('#org-postcode').fill('69001');
    await page.locator('#org-city').fill('Lyon');
    await page.locator('#org-effectif').fill('12');
    await page.locator('#org-convention').selectOption('droit_commun');
    await page.locator('#org-categorie_juridique').selectOption('SARL');
    await page.locator('#org-taux_at').fill('2,3');
    await page.locator('#org-siret').press('Enter');
    await page.locator('#org-status', { hasText: 'Fiche enregistrée.' }).waitFor();
    assert.equal(await page.locator('#org-siret-error').isHidden(), true, 'the refusal is gone');
    assert.equal(await page.locator('#org-siret').inputValue(), '12345678900012');
    assert.equal(await page.locator('#org-email_notifs').inputValue(), 'compta@soleil.example');
    // Read back as the field asks for it: two decimals.
    assert.equal(await page.locator('#org-taux_at').inputValue(), '2,30');
    const saved = await db
      .selectFrom('organizations')
      .select([
        'email_notifs',
        'email_notifs_cc',
        'siret',
        'address_line',
        'postcode',
        'city',
        'effectif',
        'convention',
        'categorie_juridique',
        'taux_at',
        'virements_salaires',
      ])
      .where('id', '=', soleil)
      .executeTakeFirstOrThrow();
    assert.deepEqual(saved, {
      email_notifs: ['compta@soleil.example'],
      email_notifs_cc: ['direction@soleil.example'],
      siret: '12345678900012',
      address_line: '3 place du Théâtre',
      postcode: '69001',
      city: 'Lyon',
      effectif: 12,
      convention: 'droit_commun',
      categorie_juridique: 'SARL',
      taux_at: '2.30',
      virements_salaires: 'client',
    });

    // Zoé has no IBAN: a wrong one is refused next to the field, the right one shows as its last four.
    assert.deepEqual(await texts(page, '#employee-table tbody td[data-label="IBAN"]'), ['—', '•••• 0189']);
    await page.locator(`#edit-${zoe} summary`).click();
    await page.locator(`#emp-${zoe}-iban`).fill('FR76 3000 6000 0112 3456 7890 188');
    await page.locator(`#emp-${zoe}-iban`).press('Enter');
    await page.locator(`#emp-${zoe}-iban-error`, { hasText: "L'IBAN n'est pas valide (clé de contrôle, longueur ou pays)." }).waitFor();
    assert.equal(await focusedId(page), `emp-${zoe}-iban`);
    await page.locator(`#emp-${zoe}-iban`).fill(IBAN.helene);
    await page.locator(`#emp-${zoe}-cadre`).check();
    await page.locator(`#emp-${zoe}-pas_rate`).fill('7,5');
    await page.locator(`#emp-${zoe}-category`).selectOption('artiste');
    await page.getByRole('button', { name: 'Enregistrer Zoé Bernard' }).click();
    await page.locator('#employees-status', { hasText: 'Zoé Bernard : enregistré, IBAN •••• 0189.' }).waitFor();
    assert.equal(await page.locator(`#emp-${zoe}-iban`).inputValue(), '', 'the typed IBAN is not kept in the page');
    assert.deepEqual(await texts(page, `tr[data-employee-id="${zoe}"] td.cell-iban`), ['•••• 0189']);
    assert.doesNotMatch(await page.content(), /FR76\s?3000|30006000/, 'the whole IBAN is nowhere in the page');

    // Reloaded: what the server keeps.
    await page.reload();
    assert.deepEqual(await texts(page, '#employee-table tbody td[data-label="Salarié"]'), ['Bernard Zoé', 'Lefèvre Hélène']);
    assert.deepEqual(await texts(page, '#employee-table tbody td[data-label="IBAN"]'), ['•••• 0189', '•••• 0189']);
    assert.deepEqual(await texts(page, '#employee-table tbody td[data-label="Cadre"]'), ['Oui', 'Non']);
    assert.deepEqual(await texts(page, '#employee-table tbody td[data-label="Catégorie"]'), ['Artiste', '—']);
    assert.deepEqual(await texts(page, '#employee-table tbody td.cell-pas_rate'), [`7,5${NBSP}%`, 'Grille neutre']);
    assert.equal(await page.locator(`#emp-${helene}-iban`).inputValue(), '');
    assert.doesNotMatch(await page.content(), /FR76\s?3000|30006000/);
    const row = await db.selectFrom('employees').select(['iban', 'cadre', 'pas_rate']).where('id', '=', zoe).executeTakeFirstOrThrow();
    assert.deepEqual(row, { iban: 'FR7630006000011234567890189', cadre: true, pas_rate: '7.50' });

    // Zoé's editor open, on a desktop and on a phone.
    await page.locator(`#edit-${zoe} summary`).click();
    assert.equal(await page.locator(`#emp-${zoe}-pas_rate`).inputValue(), '7,50');
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'staff-organisation-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await horizontalOverflow(page), 0, 'no horizontal scrolling on a phone');
    assert.equal(await page.locator('#employees .table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth), 0, 'the open editor fits its row');
    await screenshot(page, 'staff-organisation-390');
    assert.deepEqual(errors, []);
  });

  it('should let a client add an employee with an IBAN from the contract form, a wrong IBAN refused next to it; and refuse the staff pages', {
    timeout: 200_000,
  }, async (t) => {
    const { app, db, soleil, admin } = await organizations(t);
    const { page, errors } = await signedInPage(browser(), app, admin, t);
    const refused = await page.goto(`${app.url}/staff/organisations/${soleil}`);
    assert.equal(refused?.status(), 403);
    await page.goto(`${app.url}/contrats/nouveau`);
    await page.locator('#new-employee summary').click();
    await page.locator('#new-employee-first').fill('Léa');
    await page.locator('#new-employee-last').fill('Martin');
    await page.locator('#new-employee-iban').fill('FR76 1234');
    // The category first: asked where the employee is made, refused next to its field.
    await page.locator('#add-employee').click();
    await page.locator('#new-employee-category-error', { hasText: 'Choisissez la catégorie du salarié' }).waitFor();
    assert.equal(await page.locator('#new-employee-category').getAttribute('aria-invalid'), 'true');
    assert.equal(await focusedId(page), 'new-employee-category');
    await page.locator('#new-employee-category').selectOption('technicien');
    await page.locator('#add-employee').click();
    await page.locator('#new-employee-iban-error', { hasText: "L'IBAN n'est pas valide" }).waitFor();
    assert.equal(await page.locator('#new-employee-iban').getAttribute('aria-invalid'), 'true');
    assert.equal(await focusedId(page), 'new-employee-iban');
    await page.locator('#new-employee-iban').fill(IBAN.marc);
    await page.locator('#add-employee').click();
    await page.locator('#status', { hasText: 'Léa Martin ajouté(e) et choisi(e) pour ce contrat.' }).waitFor();
    assert.equal(await page.locator('#new-employee-iban-error').isHidden(), true);
    assert.equal(await page.locator('#contract-employee_id option:checked').textContent(), 'Martin Léa');
    const lea = await db.selectFrom('employees').select(['iban', 'category']).where('last_name', '=', 'Martin').executeTakeFirstOrThrow();
    assert.deepEqual(lea, { iban: 'DE89370400440532013000', category: 'technicien' });
    assert.deepEqual(
      errors.filter((e) => !e.includes('403')),
      [],
    );
  });
});
