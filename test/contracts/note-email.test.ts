/** The contract-note e-mail (SPEC 6, MODULES 4), as the payroll mailbox receives it over SMTP. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { createOrg, member } from '../support/fixtures.ts';

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
});
