/**
 * The staff's contracts in a real browser: every organization's contracts, then one
 * contract's workspace: its signed PDF chosen with the file button (a non-PDF and an oversized
 * file refused in French next to the control), deleted after a confirmation, a salary edited in
 * place with its new total, and the agent's avenant adding performances on 09/12 and 13/12.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { horizontalOverflow, screenshot, signedInPage, skipReason, startApp, suiteBrowser, type TestContext, texts } from './support.ts';
import { formatDateFr, todayInFrance } from '../../src/format/french.ts';

const NBSP = '\u00a0';
const eur = (text: string) => text.replace(/ /g, NBSP);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** Two organizations, each with a contract; Le Soleil's is December's CDDU of two performances (1 000,00 €). */
async function contracts(t: TestContext) {
  const app = await startApp(t);
  const db = app.database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const agent = await member(app.app, db, soleil, 'ines.agent@soleil.example', 'AGENT', { metadata: { first_name: 'Inès' } });
  const lumiereAgent = await member(app.app, db, lumiere, 'agent@lumiere.example', 'AGENT');
  const staff = await signedIn(app.app, db, 'camille@operateur.example', { staff: 'STAFF', metadata: { first_name: 'Camille' } });
  const call = async (who: Person, url: string, payload: object) => {
    const res = await app.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
    assert.ok(res.statusCode < 300, res.body);
    return res.json();
  };
  const helene = (await call(agent, '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', category: 'artiste' })).id;
  const contract = await call(agent, '/api/contrats', {
    employee_id: helene,
    kind: 'CDDU',
    job_title: 'Comédienne',
    show_title: 'Les Misérables',
    idcc: '3090',
    start_date: '2026-12-01',
    end_date: '2026-12-07',
    dates: [
      { date: '2026-12-04', nature: 'representation', quantity: 1, amount: '450.00' },
      { date: '2026-12-05', nature: 'representation', quantity: 1, amount: '550.00' },
    ],
  });
  await call(agent, `/api/contrats/${contract.id}/submit`, {});
  const leonie = (await call(lumiereAgent, '/api/salaries', { first_name: 'Léonie', last_name: 'Faure' })).id;
  await call(lumiereAgent, '/api/contrats', {
    employee_id: leonie,
    kind: 'CDD',
    show_title: 'Tournée',
    start_date: '2027-01-04',
    end_date: '2027-03-31',
    monthly_gross: '2100',
  });
  return { app, db, soleil, lumiere, agent, staff, contract: contract as { id: string; contract_number: string } };
}

describe('staff contract pages in chromium', { skip: skipReason }, () => {
  const browser = suiteBrowser();

  it("should let staff find a contract of any organization, attach and delete its signed PDF, edit a salary and add the agent's avenant", {
    timeout: 400_000,
  }, async (t) => {
    const { app, soleil, agent, staff, contract } = await contracts(t);
    const { page, errors } = await signedInPage(browser(), app, staff, t);

    // Every organization's contracts, newest start first, with their organization.
    await page.goto(`${app.url}/staff/contrats`);
    assert.equal(await page.locator('h1').textContent(), 'Tous les contrats');
    assert.ok((await texts(page, '.main-nav a')).includes('Contrats'));
    assert.equal(await page.locator('.main-nav a[aria-current="page"]').textContent(), 'Contrats');
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Organisation"]'), ['Compagnie Lumière', 'Théâtre du Soleil']);
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Salarié"]'), ['Léonie Faure', 'Hélène Lefèvre']);
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Brut total"]'), [eur('2 100,00 €'), eur('1 000,00 €')]);
    // The organization filter.
    await page.selectOption('#filter-org', soleil);
    await page.click('#filter-submit');
    await page.waitForURL(/org_id=/);
    assert.deepEqual(await texts(page, '.grid tbody td[data-label="Numéro"]'), [contract.contract_number]);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'staff-contrats-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await horizontalOverflow(page), 0, 'no horizontal scrolling on a phone');
    await screenshot(page, 'staff-contrats-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // A row opens the contract in its organization (the link of the note e-mail).
    await page.click(`a:text("${contract.contract_number}")`);
    await page.waitForURL(`${app.url}/contrats/${contract.id}`);
    assert.equal(await page.locator('h1').textContent(), `Contrat ${contract.contract_number}`);
    assert.equal(await page.locator('.badge-contract-a_signer').textContent(), 'À signer');

    // A file dropped on the zone is checked the same way.
    await page.locator('#signed-drop').evaluate((zone) => {
      const data = new DataTransfer();
      data.items.add(new File(['x'], 'photo.png', { type: 'image/png' }));
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    assert.equal(await page.locator('#signed-file-error').textContent(), "« photo.png » n'est pas un PDF : déposez le contrat signé au format PDF.");

    // The file button refuses what is not a PDF, and a PDF past 10 Mo, in French, next to it.
    await page.setInputFiles('#signed-file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('bonjour') });
    assert.equal(await page.locator('#signed-file-error').textContent(), "« notes.txt » n'est pas un PDF : déposez le contrat signé au format PDF.");
    assert.equal(await page.locator('#signed-file').getAttribute('aria-invalid'), 'true');
    await page.setInputFiles('#signed-file', { name: 'gros.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(11 * 1024 * 1024, 0x25) });
    assert.equal(await page.locator('#signed-file-error').textContent(), '« gros.pdf » pèse 11 Mo : 10 Mo au plus.');
    // A file named .pdf that is not one: the server's refusal (415 invalid_pdf), shown at the same place.
    await page.setInputFiles('#signed-file', { name: 'faux.pdf', mimeType: 'application/pdf', buffer: Buffer.from('pas un PDF') });
    await page.locator('#signed-file-error:text("Le fichier doit être un PDF")').waitFor();
    assert.equal(await page.locator('#signed-file-error').textContent(), 'Le fichier doit être un PDF (il commence par %PDF-).');
    assert.equal(await page.locator('.badge-contract-a_signer').count(), 1, 'nothing was stored');

    // The signed PDF, chosen with the file button; its progress is reported.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => seen.push(document.getElementById('signed-progress-text')?.textContent ?? '')).observe(
        document.getElementById('signed-pdf')!,
        { subtree: true, childList: true, characterData: true, attributes: true },
      );
    });
    await page.setInputFiles('#signed-file', { name: 'signe.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.locator(`#status:text("PDF signé « signe.pdf » déposé : le contrat ${contract.contract_number} est signé.")`).waitFor();
    assert.equal(await page.locator('.badge-contract-signe').textContent(), 'Signé');
    assert.ok((await page.locator('#signed-pdf-state').textContent())!.startsWith('Un PDF signé est déposé'));
    assert.ok(
      (await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)).includes('100 %'),
      'the upload reported its progress',
    );

    // Its deletion asks first: kept, then deleted.
    await page.click('#delete-signed-pdf');
    assert.ok(await page.locator('#confirm-delete-signed').evaluate((d: HTMLDialogElement) => d.open));
    await page.click('#confirm-delete-signed button[value="cancel"]');
    assert.equal(await page.locator('.badge-contract-signe').count(), 1);
    await page.click('#delete-signed-pdf');
    await page.click('#confirm-delete-signed-ok');
    await page.locator(`#status:text("PDF signé supprimé : le contrat ${contract.contract_number} est de nouveau à signer.")`).waitFor();
    assert.equal(await page.locator('.badge-contract-a_signer').textContent(), 'À signer');
    assert.equal(await page.locator('#delete-signed-pdf').count(), 0);

    // The 5th's salary edited in place: the total follows as typed, then as saved.
    await page.fill('#salary-amount-2', '600,00');
    assert.equal(await page.locator('#salaries-total').textContent(), `${eur('1 050,00 €')} (non enregistré)`);
    await page.click('#save-salaries');
    await page.locator(`#status:text("Salaires enregistrés : total ${eur('1 050,00 €')}.")`).waitFor();
    assert.equal(await page.locator('#gross-total').textContent(), eur('1 050,00 €'));
    assert.equal(await page.locator('#salaries-total').textContent(), eur('1 050,00 €'));

    // The avenant: refused while the period is not extended, next to the end date; then the 9th and the 13th.
    await page.fill('#avenant-date-1', '09/12/2026');
    await page.fill('#avenant-amount-1', '480,50');
    await page.click('#save-avenant');
    await page.locator('#avenant-end_date-error:visible').waitFor();
    assert.equal(
      await page.locator('#avenant-end_date-error').textContent(),
      "L'avenant doit prolonger la période du contrat : une date de début plus tôt ou une date de fin plus tard.",
    );
    await page.fill('#avenant-end_date', '14/12/2026');
    await page.click('#avenant-add-line');
    await page.fill('#avenant-date-2', '13/12/2026');
    await page.fill('#avenant-amount-2', '480,50');
    await page.click('#save-avenant');
    await page.locator('#status:text("Avenant enregistré : 2 dates ajoutées.")').waitFor();
    const today = formatDateFr(todayInFrance());
    assert.deepEqual(await texts(page, '#avenant-list li'), [
      `Avenant n° 1 du ${today} : période portée du 01/12/2026 au 14/12/2026 inclus (auparavant du 01/12/2026 au 07/12/2026 inclus). Dates ajoutées : 09/12/2026 (Représentation, ${eur('480,50 €')}), 13/12/2026 (Représentation, ${eur('480,50 €')}).`,
    ]);
    assert.deepEqual(await texts(page, '#salary-lines td[data-label="Date"]'), ['04/12/2026', '05/12/2026', '09/12/2026', '13/12/2026']);
    assert.equal(await page.locator('#gross-total').textContent(), eur('2 011,00 €'));
    assert.ok((await texts(page, '#summary dd')).includes('du 01/12/2026 au 14/12/2026'));
    // The history records it all; the PDF to sign, rendered at submission, is rendered again with the avenant.
    assert.deepEqual((await texts(page, '#contract-history .note-meta strong')).slice(0, 5), [
      'PDF généré',
      'Avenant',
      'Salaires par date modifiés',
      'PDF signé supprimé',
      'PDF signé déposé',
    ]);
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'staff-contrat-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await horizontalOverflow(page), 0, 'no horizontal scrolling on a phone');
    await screenshot(page, 'staff-contrat-390');
    assert.deepEqual(errors, []);

    // The AGENT sees the avenant, not the staff's tools; the staff grid is not theirs.
    const client = await signedInPage(browser(), app, agent, t);
    await client.page.goto(`${app.url}/contrats/${contract.id}`);
    assert.equal(await client.page.locator('#avenant-list li').count(), 1);
    assert.equal(await client.page.locator('#signed-pdf, #salaries-form, #contract-history').count(), 0);
    const refused = await client.page.goto(`${app.url}/staff/contrats`);
    assert.equal(refused?.status(), 403);
  });
});
