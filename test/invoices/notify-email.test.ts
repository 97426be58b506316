/**
 * Bulk notification of invoices: one e-mail per invoice through the
 * outbox, To every `email_notifs`, Cc every `email_notifs_cc`, as a real SMTP server receives it;
 * the text by invoice type and payment method; the per-invoice result.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressObject } from 'mailparser';
import { build } from '../helper.ts';
import { startSmtpServer, type ReceivedMail } from '../support/smtp.ts';
import { createOrg, outbox, signedIn, type Person } from '../support/fixtures.ts';

const NBSP = '\u00a0';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function setup(t: Parameters<typeof build>[0]) {
  const smtp = await startSmtpServer();
  t.after(() => smtp.stop());
  const { app, database } = await build(t, {
    env: { SMTP_URL: smtp.url, OPERATOR_NAME: 'Odentas Paie SAS', OPERATOR_IBAN: 'FR7630006000011234567890189', OPERATOR_BIC: 'AGRIFRPP' },
    app: { mailWorker: true, mailPollMs: 20 },
  });
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre <du> Soleil & Cie', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const silent = await createOrg(db, 'Sans Adresse', 'SAN003');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const call = (who: Person, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
  await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, {
    email_notifs: ['compta@soleil.example', 'direction@soleil.example'],
    email_notifs_cc: ['expert@cabinet.example'],
  });
  await call(staff, 'PATCH', `/api/staff/orgs/${lumiere}`, { email_notifs: ['paie@lumiere.example'] });
  const create = async (org_id: string, extra: object, unit_price = '1028.75') => {
    const res = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
      invoice_type: 'paie_mensuelle',
      payment_method: 'prelevement',
      period_label: 'novembre 2026',
      issue_date: '2026-11-26',
      due_date: '2026-12-10',
      invoices: [{ org_id, lines: [{ label: 'Traitement de la paie', quantity: 1, unit_price, vat_rate: '20.00' }] }],
      ...extra,
    });
    assert.equal(res.statusCode, 201, res.body);
    // Its document made by its job, so that the notification leaves at once.
    await app.jobs.worker.runDue();
    return res.json().created[0] as { id: string; number: string };
  };
  return { app, db, smtp, soleil, lumiere, silent, staff, call, create };
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

function bySubject(messages: ReceivedMail[], number: string): ReceivedMail {
  const mail = messages.find((m) => m.subject === `Votre facture ${number} est disponible`);
  assert.ok(mail, `an e-mail for ${number}`);
  return mail;
}

describe('POST /api/staff/facturation/bulk-notify', () => {
  it('should e-mail each invoice To every email_notifs and Cc every email_notifs_cc, the text by type and payment method', async (t) => {
    const { db, smtp, soleil, lumiere, staff, call, create } = await setup(t);
    const monthly = await create(soleil, {}); // 1 028,75 HT, 205,75 TVA, 1 234,50 TTC
    const noLabel = await create(lumiere, { payment_method: 'virement', period_label: '' });
    const opening = await create(lumiere, { invoice_type: 'frais_ouverture', period_label: '' }, '150');
    const service = await create(soleil, { invoice_type: 'prestation', payment_method: 'virement', period_label: 'Formation DSN' }, '80');

    const res = await call(staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [monthly.id, noLabel.id, opening.id, service.id] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { notified: [monthly.id, noLabel.id, opening.id, service.id], waiting: [], skipped: [] });

    const messages = await smtp.waitFor(4, 10_000);
    // paie_mensuelle, prelevement, with its period.
    const first = bySubject(messages, 'F-2026-000001');
    assert.deepEqual(first.envelope.to.sort(), ['compta@soleil.example', 'direction@soleil.example', 'expert@cabinet.example']);
    assert.deepEqual(addresses(first.parsed.to), ['compta@soleil.example', 'direction@soleil.example']);
    assert.deepEqual(addresses(first.parsed.cc), ['expert@cabinet.example']);
    const text = first.text;
    assert.match(
      text,
      /^Votre facture de gestion de la paie pour la période novembre 2026 est disponible dans votre espace, pour Théâtre <du> Soleil & Cie\.$/m,
    );
    assert.ok(text.includes(`Le montant de 1${NBSP}234,50${NBSP}€ sera prélevé sur votre compte le 10/12/2026`), text);
    assert.match(text, /^Facture : F-2026-000001$/m);
    assert.match(text, /^Date d'émission : 26\/11\/2026$/m);
    assert.ok(text.includes(`Montant HT : 1${NBSP}028,75${NBSP}€`));
    assert.ok(text.includes(`TVA : 205,75${NBSP}€`));
    assert.ok(text.includes(`Montant TTC : 1${NBSP}234,50${NBSP}€`));
    assert.match(text, /^Échéance : 10\/12\/2026$/m);
    assert.ok(text.includes('https://paie.example.com/factures'));
    assert.ok(!text.includes('du mois'));
    assert.ok(first.html.includes('Théâtre &lt;du&gt; Soleil &amp; Cie'));
    assert.ok(!first.html.includes('<du>'));
    assert.ok(first.html.includes('href="https://paie.example.com/factures"'));

    // paie_mensuelle, virement, no period label: "du mois"; the transfer with the number as reference.
    const second = bySubject(messages, 'F-2026-000002');
    assert.deepEqual(second.envelope.to, ['paie@lumiere.example']);
    assert.equal(second.parsed.cc, undefined);
    assert.match(second.text, /^Votre facture de gestion de la paie du mois est disponible/m);
    assert.ok(
      second.text.includes(`Merci de régler la somme de 1${NBSP}234,50${NBSP}€ par virement avant le 10/12/2026, en indiquant la référence F-2026-000002`),
      second.text,
    );
    assert.match(second.text, /^IBAN : FR76 3000 6000 0112 3456 7890 189$/m);
    assert.match(second.text, /^BIC : AGRIFRPP$/m);
    assert.match(second.text, /^Bénéficiaire : Odentas Paie SAS$/m);
    assert.ok(!second.text.includes('prélevé'));

    const third = bySubject(messages, 'F-2026-000003');
    assert.match(third.text, /^Votre facture de frais d'ouverture de dossier est disponible/m);
    assert.ok(third.text.includes(`Le montant de 180,00${NBSP}€ sera prélevé sur votre compte le 10/12/2026`));
    const fourth = bySubject(messages, 'F-2026-000004');
    assert.match(fourth.text, /^Votre facture de prestation \(Formation DSN\) est disponible/m);
    assert.ok(fourth.text.includes(`96,00${NBSP}€ par virement avant le 10/12/2026`));

    const rows = await db.selectFrom('invoices').select(['number', 'notified', 'notified_at']).orderBy('number').execute();
    assert.ok(rows.every((r) => r.notified && r.notified_at instanceof Date));
    const mails = await outbox(db);
    assert.deepEqual(
      mails.filter((m) => m.kind === 'invoice').map((m) => [m.recipient, m.extra_to, m.cc]),
      [
        ['compta@soleil.example', ['direction@soleil.example'], ['expert@cabinet.example']],
        ['paie@lumiere.example', [], []],
        ['paie@lumiere.example', [], []],
        ['compta@soleil.example', ['direction@soleil.example'], ['expert@cabinet.example']],
      ],
    );
  });

  it('should skip unknown, recipient-less and already notified invoices with their reason, unless force', async (t) => {
    const { db, smtp, soleil, silent, staff, call, create } = await setup(t);
    const sendable = await create(soleil, {});
    const nobody = await create(silent, {});
    const res = await call(staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [sendable.id, UNKNOWN, 'nope', nobody.id, sendable.id] });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      notified: [sendable.id],
      waiting: [],
      skipped: [
        { id: UNKNOWN, reason: 'not_found' },
        { id: 'nope', reason: 'not_found' },
        { id: nobody.id, reason: 'no_recipient' },
      ],
    });
    const firstAt = (await db.selectFrom('invoices').select('notified_at').where('id', '=', sendable.id).executeTakeFirstOrThrow()).notified_at!;
    assert.equal((await db.selectFrom('invoices').select('notified').where('id', '=', nobody.id).executeTakeFirstOrThrow()).notified, false);

    const again = await call(staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [sendable.id] });
    assert.deepEqual(again.json(), { notified: [], waiting: [], skipped: [{ id: sendable.id, reason: 'already_notified' }] });
    const forced = await call(staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [sendable.id], force: true });
    assert.deepEqual(forced.json(), { notified: [sendable.id], waiting: [], skipped: [] });
    const secondAt = (await db.selectFrom('invoices').select('notified_at').where('id', '=', sendable.id).executeTakeFirstOrThrow()).notified_at!;
    assert.ok(secondAt.getTime() >= firstAt.getTime());
    await smtp.waitFor(2, 10_000);
    assert.equal((await outbox(db)).filter((m) => m.kind === 'invoice').length, 2);
    assert.equal((await db.selectFrom('module_events').select('id').where('action', '=', 'invoice.notified').execute()).length, 2);

    for (const [payload, error] of [
      [{}, 'missing_invoice_ids'],
      [{ invoice_ids: [] }, 'missing_invoice_ids'],
      [{ invoice_ids: 'x' }, 'invalid_invoice_ids'],
      [{ invoice_ids: [1] }, 'invalid_invoice_ids'],
      [{ invoice_ids: [sendable.id], force: 'yes' }, 'invalid_force'],
      [{ invoice_ids: Array.from({ length: 5001 }, () => UNKNOWN) }, 'invalid_invoice_ids'],
    ] as const) {
      const bad = await call(staff, 'POST', '/api/staff/facturation/bulk-notify', payload);
      assert.equal(bad.statusCode, 400, JSON.stringify(payload).slice(0, 100));
      assert.equal(bad.json().error, error);
    }
  });
});
