/**
 * The staff's contribution calls: every organization's list, the notification by
 * e-mail through the outbox (as a real SMTP server receives it: French amounts and dates,
 * escaped values, the link), the payment (`paye`), their refusals and audit events.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressObject } from 'mailparser';
import { build } from '../helper.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { createOrg, member, outbox, signedIn, type Person } from '../support/fixtures.ts';
import { todayInFrance } from '../../src/format/french.ts';
import { addDays, numberingYear } from '../../src/format/calendar.ts';

const NBSP = '\u00a0';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function setup(t: Parameters<typeof build>[0]) {
  const smtp = await startSmtpServer();
  t.after(() => smtp.stop());
  const { app, database, config } = await build(t, {
    app: { mailWorker: true, mailPollMs: 20 },
    env: { SMTP_URL: smtp.url, OPERATOR_NAME: 'Odentas Paie', OPERATOR_IBAN: 'FR7630004000031234567890143', OPERATOR_BIC: 'BNPAFRPP' },
  });
  assert.equal(config.publicUrl, 'https://paie.example.com');
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre <du> Soleil & Cie', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const admin = await member(app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const call = (who: Person, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
  await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, {
    email_notifs: ['compta@soleil.example', 'direction@soleil.example'],
    email_notifs_cc: ['expert@cabinet.example'],
  });
  const create = async (org_id: string, period: string, lines: object[], due_date = '2026-12-15') => {
    const res = await call(staff, 'POST', '/api/staff/cotisations', { org_id, period, due_date, lines });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string };
  };
  return { app, db, smtp, config, soleil, lumiere, staff, admin, call, create };
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

describe('GET /api/staff/cotisations', () => {
  it("should list every organization's calls, newest period first, with filters and keyset pages", async (t) => {
    const { soleil, lumiere, staff, admin, call, create } = await setup(t);
    const november = await create(soleil, '2026-11', [
      { organism: 'URSSAF', amount: '1234.56' },
      { organism: 'AUDIENS', amount: '310.20' },
    ]);
    const december = await create(lumiere, '2026-12', [{ organism: 'AFDAS', amount: '12' }]);
    const res = await call(staff, 'GET', '/api/staff/cotisations');
    assert.equal(res.statusCode, 200, res.body);
    const items = res.json().items;
    assert.deepEqual(
      items.map((c: { id: string; org_name: string; total: string; status: string; notified_at: null; paid_date: null }) => [
        c.id,
        c.org_name,
        c.total,
        c.status,
        c.notified_at,
        c.paid_date,
      ]),
      [
        [december.id, 'Compagnie Lumière', '12.00', 'a_payer', null, null],
        [november.id, 'Théâtre <du> Soleil & Cie', '1544.76', 'a_payer', null, null],
      ],
    );
    assert.deepEqual(
      (await call(staff, 'GET', `/api/staff/cotisations?org_id=${soleil}`)).json().items.map((c: { id: string }) => c.id),
      [november.id],
    );
    assert.deepEqual(
      (await call(staff, 'GET', '/api/staff/cotisations?period=2026-12')).json().items.map((c: { id: string }) => c.id),
      [december.id],
    );
    assert.deepEqual((await call(staff, 'GET', '/api/staff/cotisations?status=paye')).json().items, []);
    const first = (await call(staff, 'GET', '/api/staff/cotisations?limit=1')).json();
    assert.deepEqual(
      first.items.map((c: { id: string }) => c.id),
      [december.id],
    );
    const second = (await call(staff, 'GET', `/api/staff/cotisations?limit=1&cursor=${first.next_cursor}`)).json();
    assert.deepEqual(
      second.items.map((c: { id: string }) => c.id),
      [november.id],
    );
    for (const [query, code] of [
      ['period=2026-13', 'invalid_period'],
      ['status=annule', 'invalid_status'],
      ['org_id=nope', 'invalid_org_id'],
    ]) {
      const bad = await call(staff, 'GET', `/api/staff/cotisations?${query}`);
      assert.equal(bad.statusCode, 400, query);
      assert.equal(bad.json().error, code);
    }
    const refused = await call(admin, 'GET', '/api/staff/cotisations');
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
  });
});

describe('POST /api/staff/cotisations/{id}/notifier', () => {
  it('should e-mail the call To every email_notifs and Cc every email_notifs_cc, in French, escaped, through the outbox, with an audit event', async (t) => {
    const { db, smtp, soleil, staff, call, create } = await setup(t);
    const created = await create(soleil, '2026-11', [
      { organism: 'URSSAF', amount: '1234.56' },
      { organism: 'CONGES_SPECTACLES', amount: '455' },
      { organism: 'Caisse <Retraite> & Co', amount: '10.04' },
    ]);
    const res = await call(staff, 'POST', `/api/staff/cotisations/${created.id}/notifier`);
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(res.json().notified_at, 'notified_at set');
    assert.equal(res.json().status, 'a_payer');

    const [mail] = await smtp.waitFor(1, 10_000);
    assert.ok(mail);
    const number = `AC-${numberingYear(new Date())}-000001`;
    assert.equal(mail.subject, `Appel de cotisations ${number} de novembre 2026 : 1${NBSP}699,60${NBSP}€`);
    assert.deepEqual(addresses(mail.parsed.to), ['compta@soleil.example', 'direction@soleil.example']);
    assert.deepEqual(addresses(mail.parsed.cc), ['expert@cabinet.example']);
    const text = mail.text;
    assert.ok(
      text.includes(
        `L'appel de cotisations ${number} de novembre 2026 pour Théâtre <du> Soleil & Cie est disponible dans votre espace : 1${NBSP}699,60${NBSP}€ à régler au plus tard le 15/12/2026.`,
      ),
      text,
    );
    assert.ok(text.includes(`Urssaf : 1${NBSP}234,56${NBSP}€`), text);
    assert.ok(text.includes(`Congés Spectacles : 455,00${NBSP}€`), text);
    assert.ok(text.includes(`Caisse <Retraite> & Co : 10,04${NBSP}€`), text);
    assert.match(text, /^Échéance : 15\/12\/2026$/m);
    assert.ok(text.includes('https://paie.example.com/factures#calls'), text);
    const html = mail.html;
    assert.ok(html.includes('Théâtre &lt;du&gt; Soleil &amp; Cie'), 'the name escaped');
    assert.ok(html.includes('Caisse &lt;Retraite&gt; &amp; Co'), 'the organism escaped');
    assert.ok(!html.includes('<Retraite>'));

    const events = await db
      .selectFrom('module_events')
      .select(['action', 'actor_email', 'details'])
      .where('subject_id', '=', created.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => [e.action, e.actor_email]),
      [
        ['contribution_call.created', 'staff@ops.example'],
        ['contribution_call.notified', 'staff@ops.example'],
      ],
    );
    assert.deepEqual((events[1]!.details as { to: string[] }).to, ['compta@soleil.example', 'direction@soleil.example']);
    assert.equal((await outbox(db)).filter((m) => m.kind === 'contribution_call').length, 1);

    // Again when asked again (a reminder).
    assert.equal((await call(staff, 'POST', `/api/staff/cotisations/${created.id}/notifier`)).statusCode, 200);
    await smtp.waitFor(2, 10_000);
  });

  it('should answer 409 no_recipient without a notification address, 404 for an unknown call, 403 for a client, and send nothing', async (t) => {
    const { db, lumiere, staff, admin, call, create } = await setup(t);
    const created = await create(lumiere, '2026-11', [{ organism: 'URSSAF', amount: '100' }]);
    const res = await call(staff, 'POST', `/api/staff/cotisations/${created.id}/notifier`);
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().error, 'no_recipient');
    assert.match(res.json().message, /aucune adresse de notification/);
    assert.equal((await call(staff, 'POST', `/api/staff/cotisations/${UNKNOWN}/notifier`)).statusCode, 404);
    assert.equal((await call(staff, 'POST', '/api/staff/cotisations/nope/notifier')).statusCode, 404);
    assert.equal((await call(admin, 'POST', `/api/staff/cotisations/${created.id}/notifier`)).statusCode, 403);
    assert.equal((await outbox(db)).filter((m) => m.kind === 'contribution_call').length, 0);
    const row = await db.selectFrom('contribution_calls').select('notified_at').where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.equal(row.notified_at, null);
  });
});

describe('POST /api/staff/cotisations/{id}/paye', () => {
  it('should mark the call paid on a date not in the future, once, with an audit event', async (t) => {
    const { db, soleil, staff, admin, call, create } = await setup(t);
    const created = await create(soleil, '2026-11', [{ organism: 'URSSAF', amount: '100' }]);
    const today = todayInFrance();
    const tomorrow = addDays(today, 1);
    for (const [payload, code] of [
      [{ paid_date: tomorrow }, 'invalid_paid_date'],
      [{ paid_date: '2026-02-30' }, 'invalid_paid_date'],
    ] as const) {
      const bad = await call(staff, 'POST', `/api/staff/cotisations/${created.id}/paye`, payload);
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().error, code);
    }
    assert.match(
      (await call(staff, 'POST', `/api/staff/cotisations/${created.id}/paye`, { paid_date: tomorrow })).json().message,
      /ne peut être dans le futur/,
    );
    assert.equal((await call(admin, 'POST', `/api/staff/cotisations/${created.id}/paye`, {})).statusCode, 403);

    const res = await call(staff, 'POST', `/api/staff/cotisations/${created.id}/paye`, { paid_date: '2026-11-20' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'paye');
    assert.equal(res.json().paid_date, '2026-11-20');
    const again = await call(staff, 'POST', `/api/staff/cotisations/${created.id}/paye`, {});
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error, 'already_paid');
    assert.equal(again.json().message, 'Cet appel de cotisations est déjà payé (le 20/11/2026).');
    const notify = await call(staff, 'POST', `/api/staff/cotisations/${created.id}/notifier`);
    assert.equal(notify.statusCode, 409);
    assert.equal(notify.json().error, 'already_paid');

    // Today by default; the client's list shows it paid.
    const other = await create(soleil, '2026-12', [{ organism: 'AFDAS', amount: '5' }]);
    const paidToday = await payWithoutBody(call)(staff, other.id);
    assert.equal(paidToday.paid_date, today);
    const list = await call(admin, 'GET', '/api/cotisations');
    assert.deepEqual(
      list.json().items.map((c: { status: string }) => c.status),
      ['paye', 'paye'],
    );
    assert.equal((await call(staff, 'GET', '/api/staff/cotisations?status=paye')).json().items.length, 2);
    assert.equal((await call(staff, 'POST', `/api/staff/cotisations/${UNKNOWN}/paye`, {})).statusCode, 404);

    const events = await db
      .selectFrom('module_events')
      .select(['action', 'actor_email', 'details'])
      .where('action', '=', 'contribution_call.paid')
      .where('subject_id', '=', created.id)
      .execute();
    assert.equal(events.length, 1);
    assert.equal(events[0]!.actor_email, 'staff@ops.example');
    assert.equal((events[0]!.details as { paid_date: string }).paid_date, '2026-11-20');
  });
});

/** Marks a call paid with no body at all (today). */
function payWithoutBody(
  call: (who: Person, method: 'POST', url: string, payload?: object) => Promise<{ statusCode: number; body: string; json(): { paid_date: string } }>,
) {
  return async (who: Person, id: string) => {
    const res = await call(who, 'POST', `/api/staff/cotisations/${id}/paye`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
}
