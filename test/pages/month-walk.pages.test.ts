/**
 * What a newcomer's month found on the pages, checked on the server side (the browser side is
 * in test/e2e/month-walk.e2e.test.ts): a staff page that starts on the organization staff work
 * on, and the like.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../payslips/support.ts';

/** The option selected in the select `id`, or undefined. */
const selectedOption = (body: string, id: string) => new RegExp(`<select id="${id}"[^>]*>[\\s\\S]*?<option value="([^"]*)" selected>`).exec(body)?.[1];

describe('GET /staff/paie, nothing asked yet', () => {
  it('should come with the organization staff chose with the switcher, and none without one', async (t) => {
    const { call, staff, lumiere } = await setup(t);
    const before = await call(staff, 'GET', '/staff/paie');
    assert.equal(before.statusCode, 200);
    assert.equal(selectedOption(before.body, 'paie-org'), '');
    const chosen = await call(staff, 'PUT', '/api/staff/active-org', { org_id: lumiere });
    assert.ok(chosen.statusCode < 300, chosen.body);
    const after = await call(staff, 'GET', '/staff/paie');
    assert.equal(after.statusCode, 200);
    assert.equal(selectedOption(after.body, 'paie-org'), lumiere);
  });
});

describe('GET /staff/facturation?paie=MM/AAAA', () => {
  it("should propose the month's invoices from its published payslips: the organizations checked with their count", async (t) => {
    const { call, staff, soleil, lumiere, autonome, helene, marc, leonie, payslip } = await setup(t);
    await payslip(soleil, helene, '2027-03', '2104.50');
    await payslip(soleil, marc, '2027-03', '1830.00');
    await payslip(lumiere, leonie, '2027-03', '1234.50');
    const cancelled = await payslip(lumiere, leonie, '2027-02', '99.00');
    await call(staff, 'POST', `/api/staff/payslips/${cancelled}/cancel`);
    const before = await call(staff, 'GET', '/staff/facturation');
    assert.match(
      before.body,
      new RegExp(`<input type="checkbox" class="org-choice" id="create-org-${soleil}" value="${soleil}" data-org-name="Théâtre du Soleil" data-payslips="0">`),
    );
    assert.doesNotMatch(before.body, /data-per-payslip/);

    const res = await call(staff, 'GET', '/staff/facturation?paie=03/2027');
    assert.equal(res.statusCode, 200);
    const box = (org: string) => new RegExp(`<input type="checkbox" class="org-choice" id="create-org-${org}"[^>]*>`).exec(res.body)?.[0] ?? '';
    assert.match(box(soleil), /data-payslips="2" checked>$/);
    assert.match(box(lumiere), /data-payslips="1" checked>$/);
    assert.match(box(autonome), /data-payslips="0">$/);
    assert.match(res.body, /Théâtre du Soleil <span class="muted">\(TDS001\)<\/span> <span class="muted">· 2 bulletins<\/span>/);
    assert.match(res.body, /<p id="proposal-summary">mars 2027 : 3 bulletins publiés dans 2 organisations, cochées ci-dessous\.<\/p>/);
    assert.match(res.body, /<input id="create-period" name="period_label"[^>]* value="mars 2027"/);
    assert.match(res.body, /<tr class="invoice-line" data-per-payslip>[\s\S]*?value="Bulletins de paie, mars 2027"/);
    assert.match(res.body, /<input id="propose-month" name="paie"[^>]* value="03\/2027"/);

    // A month with none, and a month mistyped.
    const none = await call(staff, 'GET', '/staff/facturation?paie=01/2027');
    assert.match(none.body, /<p id="proposal-summary">Aucun bulletin publié pour janvier 2027 : rien à proposer\.<\/p>/);
    assert.doesNotMatch(none.body, / checked>/);
    const wrong = await call(staff, 'GET', '/staff/facturation?paie=mars');
    assert.equal(wrong.statusCode, 200);
    assert.match(wrong.body, /<p id="propose-month-error" class="field-error">Indiquez le mois de paie au format MM\/AAAA, par exemple 01\/2027\.<\/p>/);
    assert.match(wrong.body, /<input id="propose-month"[^>]* aria-invalid="true">/);
  });
});
