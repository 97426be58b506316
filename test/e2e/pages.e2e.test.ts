/**
 * The pages in a real browser: each scenario has its own app, database, SMTP
 * capture and browser context.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { addMembership, createOrg, member, signedIn } from '../support/fixtures.ts';
import { activationLink, freePort, horizontalOverflow, mailTo, newPage, screenshot, skipReason, startApp, suiteBrowser } from './support.ts';

const LINK_SENT = "Si un compte existe pour cette adresse, un lien de connexion vient d'être envoyé.";

describe('pages in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it('should let an administrator invite a new member through the form', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, 'Compagnie Lumière', 'LUM001');
    const admin = await member(app.app, db, orgId, 'alice@example.com', 'ADMIN', { metadata: { first_name: 'Alice' } });
    await member(app.app, db, orgId, 'bruno@example.com', 'AGENT', { metadata: { first_name: 'Bruno' } });
    const { page, errors } = await newPage(browser(), t, { app, who: admin });

    await page.goto(`${app.url}/vos-acces`);
    assert.equal(await page.locator('h1').textContent(), 'Vos accès');
    assert.equal(await page.locator('#members tbody tr').count(), 2);

    // An empty e-mail is stopped on the page, with a French message tied to the field.
    await page.getByRole('button', { name: "Envoyer l'invitation" }).click();
    assert.equal(await page.locator('#invite-email-error').textContent(), 'Indiquez une adresse e-mail.');
    assert.equal(await page.getByLabel('Adresse e-mail').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('Adresse e-mail').fill('nina@example.com');
    await page.getByLabel('Prénom').fill('Nina');
    await page.getByLabel('Rôle', { exact: true }).selectOption('COMPTA');
    // The role list offers no SUPER_ADMIN.
    assert.deepEqual(await page.locator('#invite-role option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), [
      'ADMIN',
      'AGENT',
      'COMPTA',
    ]);
    await page.getByRole('button', { name: "Envoyer l'invitation" }).click();

    await page.locator('#members-status', { hasText: 'Invitation envoyée : nina@example.com.' }).waitFor();
    const newest = page.locator('#members tbody tr').first();
    assert.equal(await newest.getAttribute('data-email'), 'nina@example.com');
    assert.equal((await newest.locator('td').nth(0).textContent())?.trim(), 'Nina');
    assert.equal((await newest.locator('td').nth(2).textContent())?.trim(), 'Comptabilité');
    assert.equal((await newest.locator('.badge').textContent())?.trim(), 'Invitation envoyée');
    assert.equal(await newest.getByRole('button', { name: "Renvoyer l'invitation à nina@example.com" }).count(), 1);
    assert.equal(await page.getByLabel('Adresse e-mail').inputValue(), '', 'the form is emptied for the next invitation');
    const historyRow = page.locator('#history tbody tr').first();
    assert.deepEqual(
      (await historyRow.locator('td').allTextContents()).slice(1).map((s) => s.trim()),
      ['Invitation', 'alice@example.com', 'nina@example.com', 'Comptabilité'],
    );

    const mail = await mailTo(app.smtp, 'nina@example.com', 'Activez votre compte');
    assert.ok(activationLink(mail).startsWith(`${app.url}/activate#token=`));
    await screenshot(page, 'vos-acces-admin');

    // The same page on a phone: no horizontal scrolling.
    await page.setViewportSize({ width: 390, height: 800 });
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'vos-acces-admin-phone');
    assert.deepEqual(errors, []);
  });

  it('should activate the account from the invitation e-mail and show the new member their access', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    const admin = await member(app.app, db, orgId, 'alice@example.com', 'ADMIN');
    const invite = await app.app.inject({
      method: 'POST',
      url: '/api/access',
      headers: { cookie: admin.cookie },
      payload: { email: 'nina@example.com', first_name: 'Nina', role: 'COMPTA' },
    });
    assert.equal(invite.json().message, 'Invitation envoyée');
    const link = activationLink(await mailTo(app.smtp, 'nina@example.com', 'Activez votre compte'));

    const { page, errors } = await newPage(browser(), t);
    await page.goto(link);
    await page.locator('#status', { hasText: 'Votre compte est activé. Redirection…' }).waitFor();
    const confirmedAt = Date.now();
    assert.equal(new URL(page.url()).hash, '', 'the token is removed from the address bar');
    await screenshot(page, 'activate');
    // A COMPTA lands on the page of their role, then opens their accesses.
    await page.waitForURL(`${app.url}/factures`);
    assert.ok(Date.now() - confirmedAt >= 800, 'the confirmation stays about 1 s before the redirect');
    await page.goto(`${app.url}/vos-acces`);

    const own = page.locator('#own tbody tr');
    assert.equal(await own.count(), 1);
    assert.deepEqual(
      (await own.locator('td').allTextContents()).map((s) => s.trim()),
      ['Théâtre du Soleil', 'Comptabilité', 'Actif'],
    );
    assert.match((await page.locator('.session-user').textContent()) ?? '', /Nina \(nina@example\.com\)/);
    assert.equal(await page.locator('#members').count(), 0, 'a COMPTA manages no one');
    assert.deepEqual(errors, []);

    // The administrator's list now shows Nina as active.
    const list = await app.app.inject({ method: 'GET', url: '/api/access', headers: { cookie: admin.cookie } });
    assert.equal(list.json().items.find((i: { email: string }) => i.email === 'nina@example.com').activated, true);

    // The same link a second time: the API's message, and a way to ask for a new link.
    const second = await (await browser().newContext()).newPage();
    t.after(() => second.context().close());
    await second.goto(link);
    await second.locator('#status', { hasText: 'Ce lien est invalide, expiré ou déjà utilisé. Demandez un nouveau lien.' }).waitFor();
    assert.equal(new URL(second.url()).hash, '');
    assert.equal(await second.locator('#retry').isVisible(), true);
    await screenshot(second, 'activate-invalid');
    await second.getByLabel('Adresse e-mail').fill('nina@example.com');
    await second.getByRole('button', { name: 'Recevoir un nouveau lien' }).click();
    await second.locator('#retry-status', { hasText: LINK_SENT }).waitFor();
    const signIn = await mailTo(app.smtp, 'nina@example.com', 'Votre lien de connexion');
    assert.ok(activationLink(signIn, 'magiclink').startsWith(`${app.url}/activate#token=`));
    assert.equal(await second.getByRole('link', { name: 'Aller à la page de connexion' }).getAttribute('href'), '/login');
  });

  it('should let staff switch organization, change a role and revoke a member after confirming', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    for (let i = 1; i <= 30; i++) await createOrg(db, `Compagnie ${String(i).padStart(2, '0')}`, `CIE${i}`);
    await createOrg(db, 'Alpha Production', 'ALP001');
    const beta = await createOrg(db, 'Beta Spectacles', 'BET001');
    await member(app.app, db, beta, 'boss@example.com', 'SUPER_ADMIN', { metadata: { first_name: 'Béatrice' } });
    const paul = await member(app.app, db, beta, 'paul@example.com', 'AGENT', { metadata: { first_name: 'Paul' } });
    const zoe = await member(app.app, db, beta, 'zoe@example.com', 'COMPTA', { metadata: { first_name: 'Zoé' } });
    const staff = await signedIn(app.app, db, 'staff@example.com', { staff: 'STAFF', metadata: { first_name: 'Sam' } });

    const { page, errors } = await newPage(browser(), t, { app, who: staff });
    await page.goto(`${app.url}/vos-acces`);
    assert.equal(await page.locator('#current-org-name').textContent(), 'Vue globale : toutes les organisations');
    assert.equal(await page.locator('#members').count(), 0);
    assert.equal(await page.locator('#global tbody tr').count(), 3, 'the global view lists every membership');

    // Keyboard only: type, arrow down, Enter.
    const search = page.getByRole('combobox', { name: "Changer d'organisation" });
    await search.focus();
    await search.pressSequentially('beta');
    await page.locator('#org-search-status', { hasText: '1 organisation trouvée.' }).waitFor({ state: 'attached' });
    assert.equal(await page.getByRole('option').count(), 1);
    assert.equal(await search.getAttribute('aria-expanded'), 'true');
    await screenshot(page, 'vos-acces-staff-switcher');
    await search.press('ArrowDown');
    assert.equal(await page.getByRole('option', { name: /Beta Spectacles/ }).getAttribute('aria-selected'), 'true');
    await Promise.all([page.waitForEvent('load'), search.press('Enter')]);
    await page.locator('#current-org-name', { hasText: 'Beta Spectacles' }).waitFor();
    assert.equal(await page.locator('#members tbody tr').count(), 3);

    // Nothing to do on the SUPER_ADMIN's row.
    const bossRow = page.locator('#members tr[data-email="boss@example.com"]');
    assert.equal(await bossRow.getByRole('button').count(), 0);
    assert.match((await bossRow.textContent()) ?? '', /Administrateur principal : protégé/);

    // Role change: AGENT → ADMIN.
    await page.getByLabel('Rôle de paul@example.com').selectOption('ADMIN');
    await page.getByRole('button', { name: 'Modifier le rôle de paul@example.com' }).click();
    await page.locator('#members-status', { hasText: 'Rôle de paul@example.com changé : « Administrateur ».' }).waitFor();
    const paulRow = page.locator('#members tr[data-email="paul@example.com"]');
    assert.equal((await paulRow.locator('td').nth(2).textContent())?.trim(), 'Administrateur');
    assert.equal(await page.evaluate(() => document.activeElement?.id), `change-role-${paul.userId}`, 'focus stays on the row');
    const updated = await mailTo(app.smtp, 'paul@example.com', 'Vos accès ont été mis à jour');
    assert.match(updated.text, /staff@example\.com/);

    // Revocation: cancelling changes nothing, confirming revokes.
    const revoke = page.getByRole('button', { name: "Révoquer l'accès de zoe@example.com" });
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: "Révoquer l'accès ?" });
    await dialog.waitFor();
    assert.equal(
      await dialog.locator('#confirm-text').textContent(),
      'zoe@example.com perdra immédiatement son accès à Beta Spectacles. Vous pourrez le rétablir plus tard.',
    );
    await screenshot(page, 'vos-acces-staff-confirm');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    assert.equal(await dialog.isVisible(), false);
    let zoeRow = await db.selectFrom('organization_members').select('revoked').where('user_id', '=', zoe.userId).executeTakeFirstOrThrow();
    assert.equal(zoeRow.revoked, false);

    await revoke.click();
    await dialog.getByRole('button', { name: "Révoquer l'accès" }).click();
    await page.locator('#members-status', { hasText: 'Accès révoqué : zoe@example.com.' }).waitFor();
    const zoeLine = page.locator('#members tr[data-email="zoe@example.com"]');
    assert.equal((await zoeLine.locator('.badge').textContent())?.trim(), 'Révoqué');
    assert.equal(await zoeLine.getByRole('button', { name: "Rétablir l'accès de zoe@example.com" }).count(), 1);
    zoeRow = await db.selectFrom('organization_members').select('revoked').where('user_id', '=', zoe.userId).executeTakeFirstOrThrow();
    assert.equal(zoeRow.revoked, true);

    const history = (
      await page.locator('#history tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent?.trim())))
    ).slice(0, 3);
    assert.deepEqual(history, [
      ['Révocation', 'staff@example.com', 'zoe@example.com', 'Comptabilité'],
      ['Changement de rôle', 'staff@example.com', 'paul@example.com', 'Agent → Administrateur'],
      ["Organisation choisie par l'équipe", 'staff@example.com', 'staff@example.com', '—'],
    ]);
    await screenshot(page, 'vos-acces-staff');

    await page.setViewportSize({ width: 390, height: 800 });
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'vos-acces-staff-phone');
    assert.deepEqual(errors, []);
  });

  it('should show an AGENT only their own access', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, 'Compagnie Lumière', 'LUM001');
    await member(app.app, db, orgId, 'alice@example.com', 'ADMIN');
    const agent = await member(app.app, db, orgId, 'agent@example.com', 'AGENT', { metadata: { first_name: 'Bruno' } });
    const other = await createOrg(db, 'Ancienne Compagnie');
    await addMembership(db, other, agent.userId, 'COMPTA', { revoked: true });

    const { page, errors } = await newPage(browser(), t, { app, who: agent });
    await page.goto(`${app.url}/vos-acces`);
    const rows = await page.locator('#own tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())));
    assert.deepEqual(rows, [
      ['Compagnie Lumière', 'Agent', 'Actif'],
      ['Ancienne Compagnie', 'Comptabilité', 'Révoqué'],
    ]);
    for (const id of ['members', 'invite', 'history', 'org-switcher', 'confirm']) {
      assert.equal(await page.locator(`#${id}`).count(), 0, id);
    }
    assert.doesNotMatch(await page.content(), /alice@example\.com/);
    assert.equal(
      await page.locator('#no-manage').textContent(),
      'Pour ajouter un membre ou changer un rôle, adressez-vous à un administrateur de votre organisation.',
    );
    await screenshot(page, 'vos-acces-agent');

    // Logging out leads to the sign-in page, and the session is gone.
    await Promise.all([page.waitForURL(`${app.url}/login`), page.getByRole('button', { name: 'Se déconnecter' }).click()]);
    await page.goto(`${app.url}/vos-acces`);
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.deepEqual(errors, []);
  });

  it('should confirm a sign-in request the same way for any address, and say when to wait', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, 'Compagnie Lumière');
    await member(app.app, db, orgId, 'alice@example.com', 'ADMIN');
    const { page, errors } = await newPage(browser(), t);
    await page.goto(`${app.url}/login`);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'email', 'the field has the focus');
    // Its focus ring is blue, not the orange or red of an error.
    assert.equal(await page.locator('#email').evaluate((el) => getComputedStyle(el).outlineColor), 'rgb(37, 99, 235)');
    await screenshot(page, 'login');
    await page.setViewportSize({ width: 390, height: 700 });
    assert.equal(await horizontalOverflow(page), 0);

    await page.getByLabel('Adresse e-mail').fill('pas-une-adresse');
    await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
    assert.match((await page.locator('#email-error').textContent()) ?? '', /^Cette adresse e-mail n'est pas valide/);

    for (const email of ['alice@example.com', 'inconnu@example.com']) {
      await page.getByLabel('Adresse e-mail').fill(email);
      await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
      await page.locator('#status', { hasText: LINK_SENT }).waitFor();
      assert.equal(await page.locator('#status').getAttribute('data-kind'), 'success');
      if (email === 'alice@example.com') await screenshot(page, 'login-phone');
      await page.locator('#status').evaluate((el) => {
        el.textContent = '';
      });
    }
    const signIn = await mailTo(app.smtp, 'alice@example.com', 'Votre lien de connexion');
    assert.ok(activationLink(signIn, 'magiclink'));
    assert.equal(app.smtp.messages.filter((m) => m.envelope.to.includes('inconnu@example.com')).length, 0);

    // Five requests per client in 15 minutes (three per address): the sixth gets the French 429 message.
    for (let i = 0; i < 3; i++) {
      await page.getByLabel('Adresse e-mail').fill(`autre${i}@example.com`);
      await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
      await page.locator('#status', { hasText: LINK_SENT }).waitFor();
      await page.locator('#status').evaluate((el) => {
        el.textContent = '';
      });
    }
    await page.getByLabel('Adresse e-mail').fill('autre3@example.com');
    await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
    await page.locator('#status', { hasText: 'Trop de demandes : réessayez dans un moment.' }).waitFor();
    assert.equal(await page.locator('#status').getAttribute('data-kind'), 'error');
    assert.deepEqual(errors, []);
  });

  it('should refuse a form posted to the API from another site with 403 cross_site_request', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, 'Compagnie Lumière');
    const admin = await member(app.app, db, orgId, 'alice@example.com', 'ADMIN');
    // Another site (another host name): a page with a classic forgery form.
    const evilPort = await freePort();
    const evil = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><form method="post" action="${app.url}/api/access" enctype="text/plain">
        <input name='{"email":"evil@example.com","role":"ADMIN","x":"' value='"}'><button>Go</button></form>`);
    });
    await new Promise<void>((resolve) => evil.listen(evilPort, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => evil.close(resolve)));

    const { page } = await newPage(browser(), t, { app, who: admin });
    await page.goto(`http://localhost:${evilPort}/`);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${app.url}/api/access` && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Go' }).click(),
    ]);
    assert.equal(response.status(), 403);
    assert.equal((await response.json()).error, 'cross_site_request');
    const evilUser = await db.selectFrom('auth.users').select('id').where('email', '=', 'evil@example.com').executeTakeFirst();
    assert.equal(evilUser, undefined);
  });

  it('should keep long names and e-mails inside the members table at every width', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, `Compagnie ${'Interminable'.repeat(8)}`, 'LONG01');
    const admin = await member(app.app, db, orgId, 'alice@example.com', 'ADMIN', { metadata: { first_name: 'Alice' } });
    const longName = 'A'.repeat(100);
    const longEmail = `${'tres.long.prenom.nom'.repeat(5)}@${'sous-domaine'.repeat(4)}.example.com`;
    await member(app.app, db, orgId, longEmail, 'AGENT', { metadata: { first_name: longName } });
    await member(app.app, db, orgId, 'bruno@example.com', 'COMPTA', { metadata: { first_name: 'Bruno' } });
    const { page, errors } = await newPage(browser(), t, { app, who: admin });
    await page.goto(`${app.url}/vos-acces`);
    const row = page.locator(`#members tr[data-email="${longEmail}"]`);
    assert.equal(await row.locator('td.name .clip').getAttribute('title'), longName, 'the full name in a tooltip');
    assert.equal(await row.locator('td.email .clip').getAttribute('title'), longEmail);

    for (const width of [1280, 1024, 768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      assert.equal(await horizontalOverflow(page), 0, `no sideways scrolling at ${width} px`);
      const inside = await page.evaluate(() => {
        const wrap = document.querySelector('#members .table-wrap')!;
        return wrap.scrollWidth <= wrap.clientWidth;
      });
      assert.ok(inside, `the table fits its card at ${width} px`);
      // E-mail, role and actions of every row are on screen.
      for (const cell of ['td[data-label="E-mail"]', 'td[data-label="Rôle"]', 'td[data-label="Actions"] button >> nth=0']) {
        const box = await row.locator(cell).boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= width + 0.5, `${cell} visible at ${width} px: ${JSON.stringify(box)}`);
      }
      if (width === 1280) await screenshot(page, 'vos-acces-long-names');
      if (width === 390) await screenshot(page, 'vos-acces-long-names-phone');
    }
    assert.deepEqual(errors, []);
  });

  it('should put the invite form at the top of the members card, its result beside it', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, 'Compagnie Lumière', 'LUM001');
    const admin = await member(app.app, db, orgId, 'alice@example.com', 'ADMIN', { metadata: { first_name: 'Alice' } });
    for (let i = 1; i <= 9; i++) await member(app.app, db, orgId, `membre${i}@example.com`, 'AGENT');
    const { page, errors } = await newPage(browser(), t, { app, who: admin });
    await page.goto(`${app.url}/vos-acces`);
    assert.equal(await page.locator('#members tbody tr').count(), 10);

    // Keyboard: past the navigation bar's links, a handful of Tab presses, not 30.
    const navLinks = await page.locator('nav.main-nav a').count();
    assert.ok(navLinks >= 1, 'the page has its navigation bar');
    let presses = 0;
    while ((await page.evaluate(() => document.activeElement?.id)) !== 'invite-email' && presses < 40) {
      await page.keyboard.press('Tab');
      presses++;
    }
    assert.ok(presses <= navLinks + 5, `${presses} Tab presses to reach the invite form (${navLinks} navigation links)`);

    await page.keyboard.type('Nouvelle.Compta@Exemple.fr');
    await page.getByLabel('Rôle', { exact: true }).selectOption('COMPTA');
    await page.getByRole('button', { name: "Envoyer l'invitation" }).click();
    // The address as the list shows it (lower case), right under the form.
    const result = page.locator('#members-status', { hasText: 'Invitation envoyée : nouvelle.compta@exemple.fr.' });
    await result.waitFor();
    const form = (await page.locator('#invite-form').boundingBox())!;
    const box = (await result.boundingBox())!;
    assert.ok(box.y - (form.y + form.height) < 80, `the result is beside the form (${box.y - form.y - form.height} px below)`);
    assert.equal(await page.locator('#members tbody tr').first().getAttribute('data-email'), 'nouvelle.compta@exemple.fr');
    assert.equal(await page.locator('#status').textContent(), '', 'nothing said far away at the top');

    // An error appears there too.
    await page.getByLabel('Adresse e-mail').fill('alice@example.com');
    await page.getByLabel('Rôle', { exact: true }).selectOption('AGENT');
    await page.getByRole('button', { name: "Envoyer l'invitation", exact: true }).click();
    await page.locator('#members-status[data-kind="error"]', { hasText: /rôle/ }).waitFor();
    await screenshot(page, 'vos-acces-invite-result');
    assert.deepEqual(errors, []);
  });

  it('should let staff search without accents, give a SUPER_ADMIN, go back to the global view and manage their team', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const tds = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    await createOrg(db, 'Compagnie Lumière', 'CLU002');
    for (const [email, role] of [
      ['a@tds.example', 'ADMIN'],
      ['b@tds.example', 'AGENT'],
      ['c@tds.example', 'COMPTA'],
    ] as const) {
      await member(app.app, db, tds, email, role);
    }
    const gone = await member(app.app, db, tds, 'gone@tds.example', 'AGENT');
    await db.updateTable('organization_members').set({ revoked: true, revoked_at: new Date() }).where('user_id', '=', gone.userId).execute();
    const staff = await signedIn(app.app, db, 'staff@example.com', { staff: 'SUPER_STAFF', metadata: { first_name: 'Sam' } });
    const { page, errors } = await newPage(browser(), t, { app, who: staff });
    await page.goto(`${app.url}/vos-acces`);
    assert.doesNotMatch(await page.locator('main').innerText(), /membre d'aucune organisation/);
    await screenshot(page, 'vos-acces-staff-global');

    const search = page.getByRole('combobox', { name: "Changer d'organisation" });
    await search.focus();
    await search.pressSequentially('theatre');
    await page.locator('#org-search-status', { hasText: '1 organisation trouvée.' }).waitFor({ state: 'attached' });
    const option = page.getByRole('option', { name: /Théâtre du Soleil/ });
    assert.match((await option.textContent()) ?? '', /TDS001 · 3 membres actifs ou invités/);
    await Promise.all([page.waitForEvent('load'), option.click()]);
    await page.locator('#current-org-name', { hasText: 'Théâtre du Soleil' }).waitFor();
    // The same count, and what is counted, on the card.
    assert.equal(await page.locator('#members-count').textContent(), '3 membres actifs ou invités · 1 accès révoqué. Du plus récent au plus ancien.');

    // The organization has no SUPER_ADMIN: staff give it one from the page.
    await page.getByLabel('Adresse e-mail').fill('direction@tds.example');
    await page.getByLabel('Rôle', { exact: true }).selectOption('SUPER_ADMIN');
    await page.getByRole('button', { name: "Envoyer l'invitation" }).click();
    await page.locator('#members-status', { hasText: 'Invitation envoyée : direction@tds.example.' }).waitFor();
    const boss = page.locator('#members tr[data-email="direction@tds.example"]');
    assert.equal((await boss.locator('td').nth(2).textContent())?.trim(), 'Administrateur principal');
    assert.equal(await page.locator('#invite-role option[value="SUPER_ADMIN"]').count(), 0, 'one per organization');
    const welcome = await mailTo(app.smtp, 'direction@tds.example', 'Activez votre compte');
    assert.match(welcome.text, /^Niveau d'accès : Administrateur principal$/m);
    assert.match(welcome.text, /^Invité par : Sam \(staff@example\.com\), Super-administrateur \(équipe interne\)$/m);

    // Back to "no organization": the global view.
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: /Revenir à la vue globale/ }).click()]);
    await page.locator('#current-org-name', { hasText: 'Vue globale : toutes les organisations' }).waitFor();
    assert.equal(await page.locator('#global tbody tr').count(), 5);

    // The staff team page.
    await Promise.all([page.waitForURL(`${app.url}/staff/equipe`), page.getByRole('link', { name: "Gérer l'équipe interne" }).click()]);
    await page.getByLabel('Adresse e-mail').fill('Nouveau.Staff@Example.com');
    await page.getByLabel('Prénom').fill('Noé');
    await page.getByRole('button', { name: "Ajouter à l'équipe" }).click();
    await page.locator('#team-status', { hasText: "nouveau.staff@example.com fait partie de l'équipe" }).waitFor();
    assert.equal(await page.locator('#team tbody tr').count(), 2);
    const staffMail = await mailTo(app.smtp, 'nouveau.staff@example.com', 'Activez votre compte');
    assert.match(staffMail.text, /^Bienvenue dans l'équipe interne$/m);
    assert.doesNotMatch(staffMail.text, /Activer mon compte|\(super\)|STAFF/);
    await screenshot(page, 'staff-equipe');
    await page.getByRole('button', { name: "Retirer de l'équipe : nouveau.staff@example.com" }).click();
    await page.getByRole('dialog').getByRole('button', { name: "Retirer de l'équipe" }).click();
    await page.locator('#team-status', { hasText: "nouveau.staff@example.com ne fait plus partie de l'équipe." }).waitFor();
    assert.match((await page.locator('#team tr[data-email="nouveau.staff@example.com"]').textContent()) ?? '', /Retiré\(e\) le/);
    await page.setViewportSize({ width: 390, height: 800 });
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'staff-equipe-phone');
    assert.deepEqual(errors, []);
  });

  it('should explain a revocation to the member, and answer an unknown page in French', async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, 'Compagnie Lumière', 'LUM001');
    await member(app.app, db, orgId, 'alice@example.com', 'ADMIN');
    const agent = await member(app.app, db, orgId, 'agent@example.com', 'AGENT');
    await db.updateTable('organization_members').set({ revoked: true, revoked_at: new Date() }).where('user_id', '=', agent.userId).execute();
    const { page, errors } = await newPage(browser(), t, { app, who: agent });
    await page.goto(`${app.url}/vos-acces`);
    const notice = page.locator('#revoked-notice');
    assert.match(
      await notice.innerText(),
      /Votre accès à Compagnie Lumière a été révoqué le \d\d\/\d\d\/\d{4} \d\d:\d\d par un administrateur de cette organisation\./,
    );
    assert.match(await notice.innerText(), /support@example\.com/);
    await screenshot(page, 'vos-acces-revoked');

    const response = await page.goto(`${app.url}/nope`);
    assert.equal(response?.status(), 404);
    assert.equal(await page.locator('h1').textContent(), 'Page introuvable');
    await screenshot(page, 'not-found');
    assert.deepEqual(errors, []);
  });

  it("should go on to the role's page when /activate is reloaded signed in, and ask before opening another account", async (t) => {
    const app = await startApp(t);
    const db = app.database.db;
    const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    const admin = await member(app.app, db, orgId, 'alice@example.com', 'ADMIN');
    const { page, errors } = await newPage(browser(), t, { app, who: admin });

    // A reload of /activate (the token gone from the address) while signed in.
    await page.goto(`${app.url}/activate`);
    await page.locator('#status', { hasText: 'Vous êtes déjà connecté. Redirection…' }).waitFor();
    assert.equal(await page.locator('#status').getAttribute('data-kind'), 'success');
    await page.waitForURL(`${app.url}/contrats`);

    // Someone else's invitation link, opened in this browser.
    await app.app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: 'nina@example.com', role: 'AGENT' } });
    const link = activationLink(await mailTo(app.smtp, 'nina@example.com', 'Activez votre compte'));
    await page.goto(link);
    const ask = page.locator('#switch');
    await ask.waitFor();
    assert.equal(
      await page.locator('#switch-text').textContent(),
      'Ce lien ouvre le compte nina@example.com. Vous êtes connecté en tant que alice@example.com : en continuant, vous serez déconnecté de ce compte.',
    );
    await screenshot(page, 'activate-other-account');
    // Staying: still Alice, the link unused.
    await Promise.all([page.waitForURL(`${app.url}/contrats`), page.getByRole('link', { name: 'Rester connecté en tant que alice@example.com' }).click()]);
    assert.match((await page.locator('.session-user').textContent()) ?? '', /alice@example\.com/);
    // Continuing: Nina's account.
    await page.goto(link);
    await page.getByRole('button', { name: 'Continuer en tant que nina@example.com' }).click();
    await page.locator('#status', { hasText: 'Votre compte est activé.' }).waitFor();
    await page.waitForURL(`${app.url}/contrats`);
    assert.match((await page.locator('.session-user').textContent()) ?? '', /nina@example\.com/);
    assert.deepEqual(errors, []);
  });

  it('should keep /docs working under the Content-Security-Policy', async (t) => {
    const app = await startApp(t);
    const { page, errors } = await newPage(browser(), t);
    const response = await page.goto(`${app.url}/docs`);
    assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    await page.locator('.swagger-ui .info .title', { hasText: 'payroll-access' }).waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/api/access' }).first().waitFor();
    // The cookie sign-in is described: routes that need a session carry a lock.
    await page.locator('.btn.authorize').waitFor();
    assert.ok((await page.locator('.opblock .authorization__btn').count()) > 0);
    assert.deepEqual(errors, []);
  });
});
