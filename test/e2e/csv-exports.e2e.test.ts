/**
 * The CSV exports in a real browser: the "Exporter (CSV)" link of /factures downloads a
 * file a French spreadsheet opens as it is (a BOM, `;`, `1231,20`), and an AGENT is not offered
 * the payslips' export on /paie.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { moneyOrganizations } from '../support/money-fixtures.ts';
import { horizontalOverflow, screenshot, signedInPage, skipReason, startApp, suiteBrowser } from './support.ts';

describe('CSV exports in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it("should download the invoices of /factures with a BOM, and offer the payslips' export to a COMPTA, not an AGENT", { timeout: 300_000 }, async (t) => {
    const app = await startApp(t);
    const { compta, agent, invoices } = await moneyOrganizations(app.app, app.database.db);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'csv-e2e-'));
    t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

    const { page, errors } = await signedInPage(browser(), app, compta, t);
    await page.goto(`${app.url}/factures`);
    await screenshot(page, 'factures-csv-1280');
    const link = page.locator('#invoices-csv');
    assert.equal(await link.textContent(), 'Exporter (CSV) : factures');
    assert.equal(await link.getAttribute('href'), '/api/factures.csv');
    await link.focus();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.keyboard.press('Enter')]);
    assert.equal(download.suggestedFilename(), 'factures.csv');
    const file = path.join(tmp, download.suggestedFilename());
    await download.saveAs(file);
    const bytes = fs.readFileSync(file);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 with a BOM');
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    assert.ok(lines[0]!.startsWith('Numéro;Document;Facture créditée;Organisation;'));
    assert.ok(
      lines.some((l) =>
        l.startsWith(
          `${invoices.march.number};Facture;;Théâtre du Soleil;Paie mensuelle;Mars 2026;31/03/2026;15/04/2026;Prélèvement SEPA;1026,00;205,20;1231,20;`,
        ),
      ),
    );
    assert.equal(await page.locator('#calls-csv').getAttribute('href'), '/api/cotisations.csv');
    assert.equal(await page.locator('#transfers-csv').getAttribute('href'), '/api/virements.csv');

    await page.goto(`${app.url}/paie?period=03%2F2027`);
    assert.equal(await page.locator('#payslips-csv').getAttribute('href'), '/api/payslips.csv?period=2027-03');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.url}/factures`);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'factures-csv-390');
    assert.deepEqual(errors, []);

    const asAgent = await signedInPage(browser(), app, agent, t);
    await asAgent.page.goto(`${app.url}/paie`);
    assert.equal(await asAgent.page.locator('#payslips-csv').count(), 0, "the payslips' export is the money set's");
    assert.equal((await asAgent.page.locator('tbody tr').count()) > 0, true);
  });
});
