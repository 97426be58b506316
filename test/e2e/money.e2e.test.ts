/**
 * `/paie` and `/factures` in a real browser: a COMPTA reads the invoices, opens
 * one's PDF, reads the contribution calls and the transfers, filters the payslips and opens
 * one, with the keyboard; an AGENT sees the payslips but neither is offered nor may open the
 * invoices; both pages fit a phone. The money is made through the staff APIs.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { moneyOrganizations } from '../support/money-fixtures.ts';
import { formatDateFr } from '../../src/format/french.ts';
import { horizontalOverflow, screenshot, signedInPage, skipReason, startApp, suiteBrowser, type TestContext, texts } from './support.ts';

const NBSP = '\u00a0';
const eur = (text: string) => `${text.replace(/ /g, NBSP)}${NBSP}€`;

async function organization(t: TestContext) {
  const app = await startApp(t);
  const organizations = await moneyOrganizations(app.app, app.database.db);
  // The invoices' documents, made by their jobs (as the server's worker would).
  await app.app.jobs.worker.runDue();
  return { app, ...organizations };
}

const focused = (page: Page) =>
  page.evaluate(() => ({ id: document.activeElement?.id ?? '', pdf: (document.activeElement as HTMLElement | null)?.dataset.pdfUrl ?? '' }));

/** Presses Tab until the focused element passes `test` (at most `max` presses); how many presses it took. */
async function tabUntil(page: Page, what: string, test: (f: { id: string; pdf: string }) => boolean, max = 40): Promise<number> {
  for (let i = 0; i < max; i++) {
    if (test(await focused(page))) return i;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${what} (focus on ${JSON.stringify(await focused(page))})`);
}

/** Presses Enter on the focused PDF button: the download's first bytes and its name. */
async function downloadWithEnter(page: Page, dir: string): Promise<{ head: string; name: string }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.keyboard.press('Enter')]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return { head: fs.readFileSync(file).subarray(0, 5).toString('latin1'), name: download.suggestedFilename() };
}

describe('payslip and invoice pages in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it('should let a COMPTA read the invoices, contribution calls and transfers, open an invoice and a payslip PDF, with the keyboard', {
    timeout: 300_000,
  }, async (t) => {
    const { app, compta, invoices, payslips, executionDate } = await organization(t);
    const { page, errors } = await signedInPage(browser(), app, compta, t);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'money-e2e-'));
    t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

    // The invoices: French labels, dates and amounts; the bar offers what a COMPTA may open.
    await page.goto(`${app.url}/factures`);
    assert.equal(await page.locator('h1').textContent(), 'Factures et paiements');
    assert.deepEqual(await texts(page, '.main-nav a'), ['Paie', 'Factures', 'Accès']);
    assert.deepEqual(await texts(page, '.invoices tbody td[data-label="Numéro"]'), ['F-2026-000003', 'F-2026-000001']);
    assert.deepEqual(await texts(page, '.invoices tbody td[data-label="Objet"]'), ["Frais d'ouverture", 'Paie mensuelle']);
    assert.deepEqual(await texts(page, '.invoices tbody td[data-label="Période"]'), ['—', 'Mars 2026']);
    assert.deepEqual(await texts(page, '.invoices tbody td[data-label="Émise le"]'), ['02/04/2026', '31/03/2026']);
    assert.deepEqual(await texts(page, '.invoices tbody td[data-label="Échéance"]'), ['02/05/2026', '15/04/2026']);
    assert.deepEqual(await texts(page, '.invoices tbody td[data-label="Total TTC"]'), [eur('180,00'), eur('1 231,20')]);
    // The contribution calls: a line per organism, French names.
    assert.deepEqual(await texts(page, '.calls tbody td[data-label="Période"]'), ['mars 2027']);
    assert.deepEqual(await texts(page, '.calls tbody li'), [`Urssaf ${eur('1 234,50')}`, `Audiens ${eur('456,78')}`, `Congés Spectacles ${eur('300,00')}`]);
    assert.deepEqual(await texts(page, '.calls tbody td[data-label="Total"]'), [eur('1 991,28')]);
    assert.deepEqual(await texts(page, '.calls tbody td[data-label="Statut"]'), ['À payer']);
    // The transfers: date, count, total, status; never an IBAN.
    assert.deepEqual(await texts(page, '.transfers tbody tr'), [`${formatDateFr(executionDate)} 2 bulletins ${eur('3 288,75')} En cours`]);
    assert.doesNotMatch((await page.locator('main').textContent())!, /FR76|DE89|IBAN/i);
    await screenshot(page, 'factures');

    // The PDF of invoice F-2026-000001, reached and opened with the keyboard.
    await page.locator('.toc a').first().focus();
    await tabUntil(page, 'the PDF button of F-2026-000001', (f) => f.pdf === `/api/factures/${invoices.march.id}/pdf-url`);
    const invoicePdf = await downloadWithEnter(page, tmp);
    assert.equal(invoicePdf.head, '%PDF-');
    assert.equal(invoicePdf.name, 'Facture-F-2026-000001.pdf');
    await page.locator('#status', { hasText: 'Téléchargement de la facture F-2026-000001.' }).waitFor();
    assert.equal((await focused(page)).pdf, `/api/factures/${invoices.march.id}/pdf-url`, 'the focus stays on the button');

    // The payslips: the newest month first, then by name; a payslip without its PDF says so.
    await page.goto(`${app.url}/paie`);
    assert.equal(await page.locator('h1').textContent(), 'Paie');
    const periods = await texts(page, '.payslips tbody td[data-label="Période"]');
    assert.deepEqual(periods, ['mars 2027', 'mars 2027', 'février 2027']);
    const paul = page.locator(`tr[data-payslip-id="${payslips.paulMarch}"]`);
    assert.deepEqual(await texts(page, `tr[data-payslip-id="${payslips.paulMarch}"] td`), [
      'mars 2027',
      'Paul Martin-Delacroix',
      eur('1 234,50'),
      eur('987,65'),
      'Publié',
      'En cours',
      'PDF pas encore disponible',
    ]);
    assert.equal(await paul.locator('button').count(), 0);
    await screenshot(page, 'paie');

    // Filter by period with the keyboard, then open the payslip's PDF.
    await page.locator('#filter-period').focus();
    await page.keyboard.type('02/2027');
    await tabUntil(page, 'the filter button', (f) => f.id === 'filter-submit');
    await Promise.all([page.waitForURL(/period=02%2F2027/), page.keyboard.press('Enter')]);
    assert.deepEqual(await texts(page, '.payslips tbody td[data-label="Salarié"]'), ['Hélène Lefèvre']);
    assert.equal(await page.locator('#filter-period').inputValue(), '02/2027', 'the filter keeps its value');
    assert.deepEqual(await texts(page, '.payslips tbody td[data-label="Net à payer"]'), [eur('2 301,10')]);
    await page.locator('#filter-submit').focus();
    await tabUntil(page, 'the PDF button of the payslip', (f) => f.pdf === `/api/payslips/${payslips.heleneFebruary}/pdf-url`);
    const payslipPdf = await downloadWithEnter(page, tmp);
    assert.equal(payslipPdf.head, '%PDF-');
    assert.equal(payslipPdf.name, 'bulletin-2027-02-Lefèvre-Hélène.pdf');
    await page.locator('#status', { hasText: "Téléchargement du bulletin de février 2027 d'Hélène Lefèvre." }).waitFor();

    // The employee filter, chosen by typing the first letter of the name on the list.
    await page.goto(`${app.url}/paie`);
    await page.locator('#filter-employee').focus();
    await page.keyboard.type('L');
    assert.equal(await page.locator('#filter-employee option:checked').textContent(), 'Lefèvre Hélène');
    await tabUntil(page, 'the filter button', (f) => f.id === 'filter-submit');
    await Promise.all([page.waitForURL(/employee_id=/), page.keyboard.press('Enter')]);
    assert.deepEqual(await texts(page, '.payslips tbody td[data-label="Salarié"]'), ['Hélène Lefèvre', 'Hélène Lefèvre']);
    assert.deepEqual(await texts(page, '.payslips tbody td[data-label="Période"]'), ['mars 2027', 'février 2027']);

    assert.deepEqual(errors, []);
  });

  it('should show an AGENT the payslips but neither offer nor open the invoices', async (t) => {
    const { app, agent } = await organization(t);
    const { page, errors } = await signedInPage(browser(), app, agent, t);
    await page.goto(`${app.url}/paie`);
    assert.deepEqual(await texts(page, '.main-nav a'), ['Contrats', 'Paie', 'Accès']);
    assert.equal(await page.locator('.payslips tbody tr').count(), 3);
    assert.equal(await page.locator('.main-nav a', { hasText: 'Factures' }).count(), 0);
    const response = await page.goto(`${app.url}/factures`);
    assert.equal(response?.status(), 403);
    assert.equal(await page.locator('h1').textContent(), "Vous n'avez pas accès à cette page", 'the French refusal page (refusals.e2e.test.ts)');
    assert.deepEqual(
      errors.filter((e) => !e.includes('403')),
      [],
    );
  });

  it('should fit a phone: the payslips and the invoices without sideways scrolling', async (t) => {
    const { app, compta } = await organization(t);
    const { page, errors } = await signedInPage(browser(), app, compta, t);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.url}/paie`);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'paie-phone');
    await page.goto(`${app.url}/factures`);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'factures-phone');
    assert.deepEqual(errors, []);
  });
});
