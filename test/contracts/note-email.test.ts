/** The contract-note e-mail, as the payroll mailbox receives it over SMTP. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';

describe('contract note e-mail', () => {
  it('should reach PAYROLL_EMAIL with the organization, employer code, number, user, text and staff link, escaped', async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    const { app, database } = await build(t, {
      env: { SMTP_URL: smtp.url, PAYROLL_EMAIL: 'gestion-paie@operateur.example' },
      app: { mailWorker: true, mailPollMs: 20 },
    });
    const db = database.db;
    const orgId = await createOrg(db, 'Théâtre <du> Soleil & Cie', 'TDS001');
    const agent = await member(app, db, orgId, 'agent@soleil.example', 'AGENT', { metadata: { first_name: 'Inès' } });
    const call = (method: 'POST', url: string, payload: object) => app.inject({ method, url, headers: { cookie: agent.cookie }, payload });
    const employee = (await call('POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre' })).json();
    const contract = (await call('POST', '/api/contrats', { employee_id: employee.id, kind: 'CDI', start_date: '2027-01-04' })).json();

    const note = await call('POST', `/api/contrats/${contract.id}/notes`, {
      text: 'Bonjour,\nle salaire <b>brut</b> est à revoir.\nCliquez ici : https://evil.example',
    });
    assert.equal(note.statusCode, 201);

    const [received] = await smtp.waitFor(1, 5000);
    assert.deepEqual(received!.envelope.to, ['gestion-paie@operateur.example']);
    assert.equal(received!.subject, `Nouvelle note sur le contrat ${contract.contract_number}`);
    const text = received!.text;
    assert.match(text, /^Organisation : Théâtre <du> Soleil & Cie$/m);
    assert.match(text, /^Code employeur : TDS001$/m);
    assert.match(text, new RegExp(`^Contrat : ${contract.contract_number}$`, 'm'));
    assert.match(text, /^Utilisateur : Inès <agent@soleil\.example>$/m);
    // Answering the e-mail answers its author, not the operator's sender.
    assert.deepEqual(
      received!.parsed.replyTo?.value.map((a) => a.address),
      ['agent@soleil.example'],
    );
    assert.match(received!.raw, /^Reply-To: agent@soleil\.example\r?$/m);
    assert.match(text, /^> le salaire <b>brut<\/b> est à revoir\.$/m);
    // The user's text cannot pass for a line of the e-mail: every line of it is quoted.
    assert.doesNotMatch(text, /^Cliquez ici/m);
    assert.match(text, /^> Cliquez ici : https:\/\/evil\.example$/m);
    assert.ok(text.includes(`https://paie.example.com/staff/contrats/${contract.id}`));

    const html = received!.html;
    assert.ok(html.includes('Théâtre &lt;du&gt; Soleil &amp; Cie'));
    assert.ok(html.includes('le salaire &lt;b&gt;brut&lt;/b&gt; est à revoir.'));
    assert.ok(!html.includes('<b>brut</b>'));
    assert.ok(html.includes(`href="https://paie.example.com/staff/contrats/${contract.id}"`));
    assert.equal(smtp.messages.length, 1);
  });

  it("should e-mail a staff member's note to the organization's people who wrote on the contract, signed Équipe paie, and no one else", async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    const { app, database } = await build(t, {
      env: { SMTP_URL: smtp.url, PAYROLL_EMAIL: 'gestion-paie@operateur.example' },
      app: { mailWorker: true, mailPollMs: 20 },
    });
    const db = database.db;
    const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    const agent = await member(app, db, orgId, 'agent@soleil.example', 'AGENT', { metadata: { first_name: 'Inès' } });
    const admin = await member(app, db, orgId, 'admin@soleil.example', 'ADMIN');
    const silent = await member(app, db, orgId, 'silent@soleil.example', 'ADMIN');
    const leaving = await member(app, db, orgId, 'leaving@soleil.example', 'AGENT');
    const staff = await signedIn(app, db, 'camille@operateur.example', { staff: 'STAFF' });
    const call = (who: Person, url: string, payload: object) =>
      app.inject({ method: 'POST', url, headers: { cookie: who.cookie, 'x-active-org-id': orgId }, payload });
    const employee = (await call(agent, '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre' })).json();
    const contract = (await call(agent, '/api/contrats', { employee_id: employee.id, kind: 'CDI', start_date: '2027-01-04' })).json();
    const other = (await call(agent, '/api/contrats', { employee_id: employee.id, kind: 'CDI', start_date: '2027-02-01' })).json();

    // Nobody wrote on the contract yet: the staff's note tells nobody.
    assert.equal((await call(staff, `/api/contrats/${contract.id}/notes`, { text: 'Premier passage.' })).statusCode, 201);
    // Two members write (twice for one), one writes on another contract, one writes and then loses access.
    for (const [who, id, text] of [
      [agent, contract.id, 'Question 1'],
      [agent, contract.id, 'Question 2'],
      [admin, contract.id, 'Vu.'],
      [silent, other.id, 'Autre contrat'],
      [leaving, contract.id, 'Au revoir'],
    ] as const) {
      assert.equal((await call(who, `/api/contrats/${id}/notes`, { text })).statusCode, 201);
    }
    await db.updateTable('organization_members').set({ revoked: true }).where('user_id', '=', leaving.userId).execute();
    await smtp.waitFor(5, 5000);
    const before = smtp.messages.length;

    assert.equal((await call(staff, `/api/contrats/${contract.id}/notes`, { text: 'Le brut du 13/12 est corrigé <b>ici</b>.' })).statusCode, 201);
    const received = (await smtp.waitFor(before + 2, 5000)).slice(before);
    assert.deepEqual(received.map((m) => m.envelope.to).sort(), [['admin@soleil.example'], ['agent@soleil.example']]);
    for (const mail of received) {
      assert.equal(mail.subject, `Nouvelle note de l'équipe paie sur le contrat ${contract.contract_number}`);
      assert.match(mail.text, /^Auteur : Équipe paie$/m);
      assert.match(mail.text, /^Salarié : Hélène Lefèvre$/m);
      assert.match(mail.text, /^> Le brut du 13\/12 est corrigé <b>ici<\/b>\.$/m);
      assert.ok(mail.text.includes(`https://paie.example.com/contrats/${contract.id}`));
      assert.ok(!mail.raw.includes('camille@operateur.example'), 'the staff address is never shown');
      assert.ok(mail.html.includes('&lt;b&gt;ici&lt;/b&gt;'));
    }
    // The e-mails are queued with the note: once a pass finds nothing more to send, no one else was told.
    assert.equal(await app.mail.flush(), 0);
    assert.equal(smtp.messages.length, before + 2);
  });
});
