/**
 * `/staff/cotisations` (every organization's contribution calls, the form of a new one,
 * each call's notification and payment) and `/staff/facturation`'s creation of the month's
 * invoices and credit note, as the server renders them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../payslips/support.ts';
import { formatDateFr, todayInFrance } from '../../src/format/french.ts';

const NBSP = '\u00a0';
const XSS = '<img src=x onerror=alert(1)>';
const XSS_TEXT = '&lt;img src=x onerror=alert(1)&gt;';

/** The text of the cells labelled `label`, in page order, tags removed. */
const cells = (body: string, label: string) =>
  [...body.matchAll(new RegExp(`<td data-label="${label}"[^>]*>([\\s\\S]*?)</td>`, 'g'))].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/[ \t\n\r]+/g, ' ')
      .trim(),
  );
const rowIds = (body: string) => [...body.matchAll(/<tr data-call-id="([^"]+)"/g)].map((m) => m[1]);

async function calls(t: Parameters<typeof setup>[0]) {
  const ctx = await setup(t);
  const { db, call, staff, soleil, lumiere } = ctx;
  await db.updateTable('organizations').set({ name: XSS }).where('id', '=', lumiere).execute();
  const create = async (org_id: string, period: string, due_date: string, lines: object[]) => {
    const res = await call(staff, 'POST', '/api/staff/cotisations', { org_id, period, due_date, lines });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  };
  const november = await create(soleil, '2026-11', '2026-12-15', [
    { organism: 'URSSAF', amount: '1234.56' },
    { organism: 'CONGES_SPECTACLES', amount: '455' },
  ]);
  const december = await create(lumiere, '2026-12', '2027-01-15', [{ organism: 'AFDAS', amount: '12' }]);
  return { ...ctx, november, december };
}

describe('GET /staff/cotisations', () => {
  it("should list every organization's calls in French: organization, period, due date, lines per organism, total, status, notified", async (t) => {
    const { call, staff, soleil, november, december } = await calls(t);
    await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { email_notifs: ['compta@soleil.example'] });
    assert.equal((await call(staff, 'POST', `/api/staff/cotisations/${november}/notifier`)).statusCode, 200);
    const res = await call(staff, 'GET', '/staff/cotisations');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.deepEqual(rowIds(res.body), [december, november], 'newest period first');
    assert.deepEqual(cells(res.body, 'Organisation'), [XSS_TEXT, 'Théâtre du Soleil']);
    assert.ok(!res.body.includes(XSS), 'the organization name is escaped');
    assert.deepEqual(cells(res.body, 'Période'), ['décembre 2026', 'novembre 2026']);
    assert.deepEqual(cells(res.body, 'Échéance'), ['15/01/2027', '15/12/2026']);
    assert.deepEqual(cells(res.body, 'Organismes'), [`Afdas : 12,00${NBSP}€`, `Urssaf : 1${NBSP}234,56${NBSP}€Congés Spectacles : 455,00${NBSP}€`]);
    assert.deepEqual(cells(res.body, 'Total'), [`12,00${NBSP}€`, `1${NBSP}689,56${NBSP}€`]);
    assert.deepEqual(cells(res.body, 'Statut'), ['À payer', 'À payer']);
    assert.deepEqual(cells(res.body, 'Notifié'), ['Non', `Oui, le ${formatDateFr(todayInFrance())}`]);
    assert.match(res.body, /<script type="module" src="\/assets\/staff-cotisations.js"><\/script>/);
    assert.match(res.body, /<a href="\/staff\/cotisations" aria-current="page">Cotisations<\/a>/);
    assert.match(res.body, /<button type="submit" class="button" id="create-call">Créer l'appel<\/button>/);
    assert.match(res.body, /<dialog id="confirm-paid"/);
    assert.ok(res.body.includes(`value="${formatDateFr(todayInFrance())}"`), 'the payment date is today by default');
    assert.ok(res.body.includes(`data-action="notify" data-id="${december}">Notifier<`));
    assert.ok(res.body.includes(`data-action="notify" data-id="${november}">Notifier à nouveau<`));

    await call(staff, 'POST', `/api/staff/cotisations/${november}/paye`, { paid_date: '2026-11-20' });
    const paid = await call(staff, 'GET', `/staff/cotisations?org_id=${soleil}`);
    assert.deepEqual(rowIds(paid.body), [november]);
    assert.deepEqual(cells(paid.body, 'Statut'), ['Payé']);
    assert.deepEqual(cells(paid.body, 'Actions'), ['Payé le 20/11/2026']);
  });

  it('should filter by period (MM/AAAA) and status, page by keyset, and show a refused filter', async (t) => {
    const { call, staff, november, december } = await calls(t);
    assert.deepEqual(rowIds((await call(staff, 'GET', '/staff/cotisations?period=11/2026')).body), [november]);
    assert.deepEqual(rowIds((await call(staff, 'GET', '/staff/cotisations?status=a_payer&period=&org_id=')).body), [december, november]);
    assert.deepEqual(rowIds((await call(staff, 'GET', '/staff/cotisations?status=paye')).body), []);
    const first = await call(staff, 'GET', '/staff/cotisations?limit=1');
    assert.deepEqual(rowIds(first.body), [december]);
    const next = /id="next-page" href="([^"]+)"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.deepEqual(rowIds((await call(staff, 'GET', next)).body), [november]);
    const refused = await call(staff, 'GET', '/staff/cotisations?period=13/2026');
    assert.equal(refused.statusCode, 400);
    // Said of what was typed, in the field's MM/AAAA, next to the field.
    assert.match(
      refused.body,
      /<input id="filter-period" name="period"[^>]* value="13\/2026" aria-describedby="filter-period-hint filter-period-error" aria-invalid="true">/,
    );
    assert.match(
      refused.body,
      /<p id="filter-period-error" class="field-error">13\/2026 n&#39;existe pas : le mois va de 01 à 12\. Saisissez une période au format MM\/AAAA\.<\/p>/,
    );
    assert.match(refused.body, /role="alert">Liste non affichée : corrigez le filtre « Période »\.<\/p>/);
  });

  it('should answer a client ADMIN, COMPTA or AGENT as the API does (403 Forbidden), and offer Cotisations in the bar to staff only', async (t) => {
    const { app, call, admin, compta, agent, staff } = await calls(t);
    for (const who of [admin, compta, agent]) {
      const res = await call(who, 'GET', '/staff/cotisations');
      assert.equal(res.statusCode, 403, who.email);
      assert.equal(res.body, 'Forbidden');
      assert.ok(!(await call(who, 'GET', '/contrats')).body.includes('/staff/cotisations'));
    }
    const anonymous = await app.inject({ method: 'GET', url: '/staff/cotisations' });
    assert.equal(anonymous.statusCode, 302);
    assert.equal(anonymous.headers.location, '/login');
    assert.match((await call(staff, 'GET', '/staff/virements')).body, /<a href="\/staff\/cotisations">Cotisations<\/a>/);
  });
});

describe('GET /staff/facturation: creating invoices and credit notes', () => {
  it("should offer every organization to invoice, the month's fields, and the page's invoices to credit", async (t) => {
    const { call, staff, soleil, lumiere } = await calls(t);
    const created = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
      invoice_type: 'paie_mensuelle',
      payment_method: 'prelevement',
      issue_date: todayInFrance(),
      invoices: [{ org_id: soleil, lines: [{ label: 'Gestion de la paie', quantity: 12, unit_price: '85.00', vat_rate: '20' }] }],
    });
    const invoice = created.json().created[0] as { id: string; number: string };
    const res = await call(staff, 'GET', '/staff/facturation');
    assert.equal(res.statusCode, 200);
    assert.ok(
      res.body.includes(
        `<input type="checkbox" class="org-choice" id="create-org-${soleil}" value="${soleil}" data-org-name="Théâtre du Soleil" data-payslips="0">`,
      ),
    );
    assert.ok(res.body.includes(`id="create-org-${lumiere}" value="${lumiere}" data-org-name="${XSS_TEXT}"`), 'the name escaped');
    assert.ok(!res.body.includes(XSS));
    assert.match(res.body, /<option value="paie_mensuelle" selected>Paie mensuelle<\/option>/);
    assert.match(res.body, /<option value="prelevement" selected>Prélèvement SEPA<\/option><option value="virement">Virement bancaire<\/option>/);
    assert.ok(
      res.body.includes(
        `id="create-issue" name="issue_date" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${formatDateFr(todayInFrance())}"`,
      ),
    );
    assert.match(res.body, /<button type="submit" class="button" id="create-invoices-submit">Créer les factures<\/button>/);
    assert.ok(
      res.body.includes(`<option value="${invoice.id}">${invoice.number} · Théâtre du Soleil · 1${NBSP}224,00${NBSP}€ TTC</option>`),
      'the invoice to credit',
    );
    assert.match(res.body, /<section class="card" id="invoices" data-refresh/);
  });
});
