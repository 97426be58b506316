/**
 * `/staff/operateur` in a real browser: only the changed settings are sent, the page then says
 * where each comes from, and a missing setting is named by its label in what it disables.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signedIn } from '../support/fixtures.ts';
import { signedInPage, skipReason, startApp, suiteBrowser } from './support.ts';

describe('the operator settings page in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it('should save what changed and name a missing setting by its label', { timeout: 300_000 }, async (t) => {
    const app = await startApp(t, { OPERATOR_NAME: 'Odentas Paie', OPERATOR_IBAN: 'FR7630004000031234567890143', OPERATOR_BIC: 'BNPAFRPP' });
    const staff = await signedIn(app.app, app.database.db, 'camille@operateur.example', { staff: 'STAFF' });
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.goto(`${app.url}/staff/operateur`);
    assert.equal((await page.locator('#operator-gaps').textContent())?.trim(), 'Tout est renseigné : factures et fichiers SEPA peuvent être produits.');

    // An empty value saves "none": the BIC is then missing, and the page says so in its label's words.
    await page.locator('#operator-bic').fill('');
    await page.locator('#operator-city').fill('Lyon');
    await page.locator('#operator-form button[type="submit"]').click();
    await page.locator('#operator-status', { hasText: 'Réglages enregistrés.' }).waitFor();
    assert.match(
      (await page.locator('#operator-gaps').textContent()) ?? '',
      /Virements : aucun lot ni fichier SEPA, ni facture payable par virement, tant que manque ou n'est pas valide : BIC\./,
    );
    assert.equal(await page.locator('#operator-city-origin').textContent(), 'Enregistré ici.');
    assert.equal(await page.locator('#operator-name-origin').textContent(), "Valeur par défaut de l'environnement du serveur.");
    assert.deepEqual(errors, []);
  });
});
