/**
 * Accessibility in a real browser: every page, as the role that opens it, with data
 * in it (contracts in several statuses, payslips, invoices, a contribution call, a transfer
 * batch), has no violation of the WCAG 2.1 A and AA rules in an axe-core audit, at 1 280 and
 * 390 px, and fits 390 px; the staff pages' main actions work with the keyboard alone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { IBAN, OPERATOR_ENV, inDays } from '../payslips/support.ts';
import {
  focusedId,
  horizontalOverflow,
  newPage,
  signedInPage,
  skipReason,
  startApp,
  suiteBrowser,
  tabTo,
  texts,
  type RunningApp,
  type TestContext,
} from './support.ts';

const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The violations of the WCAG 2.1 A and AA rules on the page, one line each: rule, help, targets;
 * what axe could not decide ("incomplete") counts too, as every page leaves nothing to review.
 */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG21_AA).analyze();
  assert.ok(result.passes.length > 10, `axe ran its rules on ${page.url()}`);
  const line = (v: (typeof result.violations)[number], kind: string) =>
    `${v.id} (${kind}): ${v.help} → ${v.nodes.map((n) => `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, ' ')}]` : ''}`).join(', ')}`;
  return [...result.violations.map((v) => line(v, v.impact ?? 'violation')), ...result.incomplete.map((v) => line(v, 'à vérifier'))];
}

/** Two organizations; Le Soleil with employees, contracts (draft, to sign, cancelled), payslips, invoices, a contribution call and a transfer batch. */
async function operator(t: TestContext) {
  const app = await startApp(t, OPERATOR_ENV);
  const db = app.database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const staff = await signedIn(app.app, db, 'camille@operateur.example', { staff: 'STAFF', metadata: { first_name: 'Camille' } });
  const admin = await member(app.app, db, soleil, 'admin@soleil.example', 'ADMIN', { metadata: { first_name: 'Élodie' } });
  const compta = await member(app.app, db, soleil, 'compta@soleil.example', 'COMPTA');
  const call = async (who: Person, method: 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await app.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, `${url}: ${res.body}`);
    return res.json();
  };
  await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { email_notifs: ['compta@soleil.example'], virements_salaires: 'Odentas' });
  const helene = (await call(admin, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', iban: IBAN.helene, category: 'artiste' })).id;
  const marc = (await call(admin, 'POST', '/api/salaries', { first_name: 'Marc', last_name: 'Dupont', iban: IBAN.marc, category: 'technicien' })).id;
  const draft = await call(admin, 'POST', '/api/contrats', {
    employee_id: helene,
    kind: 'CDDU',
    job_title: 'Comédienne',
    show_title: 'Le Songe',
    idcc: '3090',
    start_date: '2027-03-01',
    end_date: '2027-03-31',
    dates: [
      { date: '2027-03-02', nature: 'repetition', quantity: 1, amount: '300' },
      { date: '2027-03-20', nature: 'representation', quantity: 1, amount: '400' },
    ],
  });
  const toSign = await call(admin, 'POST', '/api/contrats', {
    employee_id: marc,
    kind: 'CDD',
    job_title: 'Régisseur',
    start_date: '2027-03-01',
    end_date: '2027-03-31',
    monthly_gross: '2000',
  });
  await call(admin, 'POST', `/api/contrats/${toSign.id}/submit`);
  const cancelled = await call(admin, 'POST', '/api/contrats', {
    employee_id: marc,
    kind: 'CDI',
    job_title: 'Administrateur',
    start_date: '2027-01-04',
    monthly_gross: '3100',
  });
  await call(admin, 'POST', `/api/contrats/${cancelled.id}/cancel`);
  await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
    invoice_type: 'paie_mensuelle',
    payment_method: 'prelevement',
    period_label: 'mars 2026',
    issue_date: '2026-03-31',
    due_date: '2026-04-15',
    invoices: [
      { org_id: soleil, lines: [{ label: 'Gestion de la paie, mars 2026', quantity: 12, unit_price: '85.00', vat_rate: '20' }] },
      { org_id: lumiere, lines: [{ label: 'Gestion de la paie, mars 2026', quantity: 3, unit_price: '85.00', vat_rate: '20' }] },
    ],
  });
  const paid = await call(staff, 'POST', '/api/staff/payslips', {
    org_id: soleil,
    employee_id: helene,
    period: '2027-03',
    gross: '2700.00',
    net_to_pay: '2104.50',
  });
  await call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: marc, period: '2027-03', gross: '2300.00', net_to_pay: '1830.00' });
  await call(staff, 'POST', '/api/staff/virements', { payslip_ids: [paid.id], execution_date: inDays(2) });
  await call(staff, 'POST', '/api/staff/cotisations', {
    org_id: soleil,
    period: '2026-10',
    due_date: '2026-11-15',
    lines: [
      { organism: 'URSSAF', amount: '1234.56' },
      { organism: 'AFDAS', amount: '42.50' },
    ],
  });
  return { app, soleil, staff, admin, compta, draft: draft.id as string, toSign: toSign.id as string };
}

/** Opens `path`, waits for its scripts' requests, and audits it at 1 280 then 390 px; returns what failed. */
async function audit(page: Page, app: RunningApp, path: string, label = path): Promise<string[]> {
  const found: string[] = [];
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}${path}`);
  await page.waitForLoadState('networkidle');
  for (const line of await violations(page)) found.push(`${label} @1280: ${line}`);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const line of await violations(page)) found.push(`${label} @390: ${line}`);
  const overflow = await horizontalOverflow(page);
  if (overflow !== 0) found.push(`${label} @390: ${overflow} px wider than the screen`);
  return found;
}

describe('accessibility of every page in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it('should find no WCAG 2.1 A/AA violation on any page, at 1280 and 390 px, and no page wider than 390 px', { timeout: 600_000 }, async (t) => {
    const { app, soleil, staff, admin, compta, draft, toSign } = await operator(t);
    const found: string[] = [];
    const audited: string[] = [];
    const run = async (page: Page, path: string, label?: string) => {
      found.push(...(await audit(page, app, path, label)));
      audited.push(`${label ?? path}: ${(await texts(page, 'h1')).join(' | ')}`);
    };

    // Signed out: sign-in and an activation link that does not work.
    const anonymous = (await newPage(browser(), t, undefined, { locale: 'fr-FR' })).page;
    await run(anonymous, '/login');
    await run(anonymous, '/activate#token=invalide&type=invite', '/activate (lien invalide)');
    await anonymous.locator('#status').filter({ hasText: /./ }).waitFor();
    found.push(...(await violations(anonymous)).map((line) => `/activate (message) @390: ${line}`));

    // The organization's ADMIN: contracts, payroll, invoices, access.
    const asAdmin = (await signedInPage(browser(), app, admin, t)).page;
    for (const path of [
      '/vos-acces',
      '/contrats',
      '/contrats/nouveau',
      `/contrats/${draft}`,
      `/contrats/${toSign}`,
      `/contrats/${draft}/modifier`,
      '/paie',
      '/factures',
    ]) {
      await run(asAdmin, path);
    }
    await run(asAdmin, '/page-qui-n-existe-pas', '404');

    // A COMPTA refused the contracts.
    const asCompta = (await signedInPage(browser(), app, compta, t)).page;
    await run(asCompta, '/contrats', '403 (COMPTA sur /contrats)');

    // Staff, without an active organization first: the choose-organization page, then every staff page.
    const asStaff = (await signedInPage(browser(), app, staff, t)).page;
    await run(asStaff, '/paie', 'choix de l’organisation (/paie)');
    for (const path of [
      '/vos-acces',
      '/staff/equipe',
      '/staff/organisations',
      `/staff/organisations/${soleil}`,
      '/staff/contrats',
      `/staff/contrats/${toSign}`,
      '/staff/paie',
      `/staff/paie?org_id=${soleil}&period=03%2F2027`,
      '/staff/virements',
      '/staff/cotisations',
      '/staff/facturation',
    ]) {
      await run(asStaff, path);
    }

    assert.deepEqual(found, [], `${found.length} problems:\n${found.join('\n')}`);
    t.diagnostic(audited.join('\n'));
    // The audit is not blind: a field without a label and grey on white text are caught.
    await anonymous.evaluate(() => {
      const main = document.querySelector('main')!;
      main.append(document.createElement('input'));
      const pale = main.appendChild(document.createElement('p'));
      pale.textContent = 'Texte pâle';
      pale.style.color = '#bbb'; // set through the CSSOM: the CSP refuses style attributes
      pale.style.background = '#fff';
    });
    assert.deepEqual((await violations(anonymous)).map((line) => line.split(' ')[0]).sort(), ['color-contrast', 'label']);
    assert.equal(audited.length, 24);
  });

  it('should find no violation once errors are shown next to their fields, a confirmation is asked or a list of choices is open', {
    timeout: 600_000,
  }, async (t) => {
    const { app, soleil, staff, admin, draft } = await operator(t);
    const found: string[] = [];
    /** Opens `path` at 1 280 px, does `act`, waits for its requests, then audits the page as it is now, and at 390 px. */
    const after = async (page: Page, path: string, label: string, act: () => Promise<unknown>) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${app.url}${path}`);
      await page.waitForLoadState('networkidle');
      await act();
      await page.waitForLoadState('networkidle');
      found.push(...(await violations(page)).map((line) => `${label} @1280: ${line}`));
      await page.setViewportSize({ width: 390, height: 844 });
      found.push(...(await violations(page)).map((line) => `${label} @390: ${line}`));
      const overflow = await horizontalOverflow(page);
      if (overflow !== 0) found.push(`${label} @390: ${overflow} px wider than the screen`);
    };
    const visibleError = (page: Page) => page.locator('.field-error:not([hidden])').first().waitFor();

    const anonymous = (await newPage(browser(), t, undefined, { locale: 'fr-FR' })).page;
    await after(anonymous, '/login', '/login, adresse invalide', async () => {
      await anonymous.getByLabel('Adresse e-mail').fill('pas-une-adresse');
      await anonymous.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
    });

    const asAdmin = (await signedInPage(browser(), app, admin, t)).page;
    await after(asAdmin, '/contrats/nouveau', '/contrats/nouveau, formulaire vide envoyé', async () => {
      await asAdmin.locator('#save-contract').click();
      await visibleError(asAdmin);
    });
    await after(asAdmin, `/contrats/${draft}`, '/contrats/{id}, annulation demandée', async () => {
      await asAdmin.getByRole('button', { name: 'Annuler le contrat' }).first().click();
      await asAdmin.locator('dialog[open]').waitFor();
    });

    const asStaff = (await signedInPage(browser(), app, staff, t)).page;
    await after(asStaff, '/paie', 'choix de l’organisation, liste ouverte', async () => {
      const search = asStaff.getByRole('combobox', { name: 'Organisation' });
      await search.focus();
      await search.pressSequentially('soleil');
      await asStaff.locator('#org-search-status', { hasText: '1 organisation trouvée.' }).waitFor({ state: 'attached' });
      await asStaff.keyboard.press('ArrowDown');
    });
    await after(asStaff, '/staff/cotisations', '/staff/cotisations, formulaire vide envoyé', async () => {
      await asStaff.locator('#create-call').click();
      await visibleError(asStaff);
    });
    await after(asStaff, '/staff/cotisations', '/staff/cotisations, paiement à confirmer', async () => {
      await asStaff
        .getByRole('button', { name: /^Marquer payé/ })
        .first()
        .click();
      await asStaff.locator('#confirm-paid').waitFor();
    });
    await after(asStaff, '/staff/facturation', '/staff/facturation, formulaire vide envoyé', async () => {
      await asStaff.locator('#create-invoices-submit').click();
      await visibleError(asStaff);
    });
    await after(asStaff, '/staff/virements', '/staff/virements, formulaire vide envoyé', async () => {
      await asStaff.locator('#create-transfer').click();
      await asStaff.locator('.field-error:not([hidden]), [role="alert"]:not(:empty), .status:not(:empty)').first().waitFor();
    });
    await after(asStaff, `/staff/organisations/${soleil}`, '/staff/organisations/{id}, salarié ouvert', async () => {
      await asStaff.locator('details.employee-edit summary').first().click();
    });

    assert.deepEqual(found, [], `${found.length} problems:\n${found.join('\n')}`);
  });

  it('should let staff search an organization and create a contribution call with the keyboard alone', { timeout: 300_000 }, async (t) => {
    const { app, staff } = await operator(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);
    await page.setViewportSize({ width: 1280, height: 900 });

    // /staff/organisations: the search field, typed in and sent with Enter.
    await page.goto(`${app.url}/staff/organisations`);
    await tabTo(page, 'filter-q');
    await page.keyboard.type('soleil');
    await Promise.all([page.waitForURL(/q=soleil/), page.keyboard.press('Enter')]);
    assert.deepEqual(await texts(page, '#org-table tbody td[data-label="Organisation"]'), ['Théâtre du Soleil']);

    // /staff/cotisations: the new call's form filled and sent without the mouse.
    await page.goto(`${app.url}/staff/cotisations`);
    await tabTo(page, 'call-org');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, 'call-period');
    await page.keyboard.type('11/2026');
    await tabTo(page, 'call-due');
    await page.keyboard.type('15/12/2026');
    await page.keyboard.press('Tab');
    await page.keyboard.type('500');
    await tabTo(page, 'create-call');
    await page.keyboard.press('Enter');
    await page.locator('#call-status', { hasText: /Appel de cotisations créé pour .* novembre 2026/ }).waitFor();
    assert.equal((await texts(page, '#call-table tbody td[data-label="Échéance"]')).includes('15/12/2026'), true);
    assert.notEqual(await focusedId(page), '');

    // Every stop of the Tab key, from the skip link to the last action, shows where the focus is.
    for (const path of ['/staff/cotisations', '/staff/virements', '/staff/facturation', '/staff/organisations', '/staff/contrats', '/staff/paie']) {
      await page.goto(`${app.url}${path}`);
      await page.waitForLoadState('networkidle');
      const unseen: string[] = [];
      let stops = 0;
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        const stop = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return null;
          const style = getComputedStyle(el);
          const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
          // The file input is drawn as its label, which takes the ring.
          const label = el.matches('.file-input') && el.nextElementSibling ? getComputedStyle(el.nextElementSibling).outlineStyle !== 'none' : false;
          return { name: `${el.tagName.toLowerCase()}#${el.id}.${el.className}`, seen: ring || label };
        });
        if (!stop) break;
        stops += 1;
        if (!stop.seen) unseen.push(stop.name);
      }
      assert.ok(stops >= 10, `${path}: ${stops} Tab stops`);
      assert.deepEqual(unseen, [], `${path}: focus without a visible ring`);
    }
    assert.deepEqual(errors, []);
  });
});
