/**
 * Refusals a person can read, in a real browser: a COMPTA opening the contracts
 * and an AGENT opening the invoices get a French page with their bar and a way back (403
 * kept); a staff member who opens "Paie" before choosing an organization chooses one there and
 * lands on "Paie"; signing in logs nothing in the console (no 401) and lands each role on the
 * page it works in.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import {
  activationLink,
  horizontalOverflow,
  mailTo,
  newPage,
  screenshot,
  signedInPage,
  skipReason,
  startApp,
  suiteBrowser,
  texts,
  type TestContext,
} from './support.ts';

async function organization(t: TestContext) {
  const app = await startApp(t);
  const db = app.database.db;
  const orgId = await createOrg(db, 'Atelier des Planches', 'ADP001');
  await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const agent = await member(app.app, db, orgId, 'agent@planches.example', 'AGENT', { metadata: { first_name: 'Élodie' } });
  const compta = await member(app.app, db, orgId, 'compta@planches.example', 'COMPTA');
  return { app, db, orgId, agent, compta };
}

/** Every console message of type error, "Failed to load resource" (a 401, a 404) included, and every failed answer. */
function everyError(page: Page): { console: string[]; failed: string[] } {
  const seen = { console: [] as string[], failed: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error') seen.console.push(message.text());
  });
  page.on('pageerror', (error) => seen.console.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) seen.failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return seen;
}

describe('refusals in a browser', { skip: skipReason, timeout: 300_000 }, () => {
  const browser = suiteBrowser();

  it('should show a COMPTA opening /contrats and an AGENT opening /factures a French page with their bar and a way back', async (t) => {
    const { app, agent, compta } = await organization(t);

    const asCompta = await signedInPage(browser(), app, compta, t);
    const page = asCompta.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    const response = await page.goto(`${app.url}/contrats`);
    assert.equal(response?.status(), 403);
    assert.equal(await page.title(), 'Accès refusé · Espace paie');
    assert.equal(await page.locator('h1').textContent(), "Vous n'avez pas accès à cette page");
    assert.match(await page.locator('#refusal').innerText(), /Votre rôle dans Atelier des Planches \(Comptabilité\) ne permet pas d'ouvrir cette page\./);
    assert.deepEqual(await texts(page, '.main-nav a'), ['Paie', 'Factures', 'Accès']);
    assert.equal(await page.locator('.brand').textContent(), 'Espace paie');
    await screenshot(page, 'refus-1280');
    await page.setViewportSize({ width: 390, height: 800 });
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'refus-390');
    await Promise.all([page.waitForURL(`${app.url}/factures`), page.getByRole('link', { name: 'Aller aux factures et paiements' }).click()]);
    assert.equal(await page.locator('h1').textContent(), 'Factures et paiements');
    assert.deepEqual(
      asCompta.errors.filter((e) => !e.includes('403')),
      [],
    );

    const asAgent = await signedInPage(browser(), app, agent, t);
    const refused = await asAgent.page.goto(`${app.url}/factures`);
    assert.equal(refused?.status(), 403);
    assert.equal(await asAgent.page.locator('h1').textContent(), "Vous n'avez pas accès à cette page");
    assert.match(await asAgent.page.locator('#refusal').innerText(), /\(Agent\) ne permet pas d'ouvrir cette page\./);
    assert.deepEqual(await texts(asAgent.page, '.main-nav a'), ['Contrats', 'Paie', 'Accès']);
    await Promise.all([asAgent.page.waitForURL(`${app.url}/contrats`), asAgent.page.getByRole('link', { name: 'Aller aux contrats' }).click()]);
    assert.deepEqual(
      asAgent.errors.filter((e) => !e.includes('403')),
      [],
    );

    // The API still answers docs/api.md's plain text.
    const api = await asAgent.page.request.get(`${app.url}/api/factures`);
    assert.equal(api.status(), 403);
    assert.equal(await api.text(), 'Forbidden');
  });

  it('should let a staff member without an organization choose one on /paie and land on /paie', async (t) => {
    const { app, db } = await organization(t);
    const staff = await signedIn(app.app, db, 'staff@ops.example', { staff: 'STAFF' });
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 800 });
    const response = await page.goto(`${app.url}/paie`);
    assert.equal(response?.status(), 400);
    assert.equal(await page.locator('h1').textContent(), 'Choisissez une organisation');
    assert.equal(await page.locator('.main-nav a[aria-current="page"]').textContent(), 'Paie');
    assert.ok((await texts(page, '.main-nav a')).includes('Organisations'));
    await screenshot(page, 'choisir-organisation-1280');

    const search = page.getByRole('combobox', { name: 'Organisation' });
    await search.focus();
    await search.pressSequentially('planches');
    await page.locator('#org-search-status', { hasText: '1 organisation trouvée.' }).waitFor({ state: 'attached' });
    await page.setViewportSize({ width: 390, height: 800 });
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'choisir-organisation-390');
    await page.keyboard.press('ArrowDown');
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    assert.equal(new URL(page.url()).pathname, '/paie');
    assert.equal(await page.locator('h1').textContent(), 'Paie');
    assert.match(await page.locator('main').innerText(), /Organisation : Atelier des Planches/);
    assert.deepEqual(
      errors.filter((e) => !e.includes('400')),
      [],
    );
  });

  it('should sign in from the e-mailed link with no error in the console, and land a COMPTA on /factures', async (t) => {
    const { app, compta } = await organization(t);
    const { page } = await newPage(browser(), t, undefined, { locale: 'fr-FR' });
    const seen = everyError(page);
    await page.goto(`${app.url}/login`);
    await page.getByLabel('Adresse e-mail').fill(compta.email);
    await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
    const link = activationLink(await mailTo(app.smtp, compta.email, 'Votre lien de connexion'), 'magiclink');
    await page.goto(link);
    await page.locator('#status', { hasText: 'Vous êtes connecté. Redirection…' }).waitFor();
    await page.waitForURL(`${app.url}/factures`);
    assert.equal(await page.locator('h1').textContent(), 'Factures et paiements');
    assert.deepEqual(seen.console, [], 'no error in the console');
    assert.deepEqual(seen.failed, [], 'no request answered 4xx');
  });

  it('should land each role on the page it works in', async (t) => {
    const { app, db, agent } = await organization(t);
    const staff = await signedIn(app.app, db, 'staff@ops.example', { staff: 'STAFF' });
    for (const [who, path] of [
      [agent, '/contrats'],
      [staff, '/staff/organisations'],
    ] as const) {
      const { page, errors } = await newPage(browser(), t, { app, who });
      const seen = everyError(page);
      await page.goto(`${app.url}/activate`);
      await page.locator('#status', { hasText: 'Vous êtes déjà connecté. Redirection…' }).waitFor();
      await page.waitForURL(`${app.url}${path}`);
      await Promise.all([page.waitForURL(`${app.url}${path}`), page.locator('.brand').click()]);
      assert.deepEqual(seen.failed, [], who.email);
      assert.deepEqual(errors, []);
    }
  });
});
