/**
 * `/staff/operateur` (gate `staff`), as the server renders it: the operator's settings in force,
 * where each comes from, what a missing one disables; values escaped.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../payslips/support.ts';

/** The value of the input `id`. */
const inputValue = (body: string, id: string) => new RegExp(`<input id="${id}"[^>]* value="([^"]*)"`).exec(body)?.[1];
/** The text of the element `id`. */
const textOf = (body: string, id: string) => new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(body)?.[1]?.trim();

describe('GET /staff/operateur', () => {
  it('should show the settings in force, their origin and what is missing, and save through the API', async (t) => {
    const { call, staff } = await setup(t, { OPERATOR_NAME: 'Odentas Paie', OPERATOR_IBAN: 'FR7630004000031234567890143' });
    const res = await call(staff, 'GET', '/staff/operateur');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<a href="\/staff\/operateur" aria-current="page">Opérateur<\/a>/);
    assert.match(res.body, /<script type="module" src="\/assets\/staff-operateur.js/);
    assert.deepEqual(
      ['name', 'siret', 'iban', 'bic'].map((f) => inputValue(res.body, `operator-${f}`)),
      ['Odentas Paie', '81234567800021', 'FR7630004000031234567890143', ''],
    );
    assert.equal(textOf(res.body, 'operator-iban-origin'), 'Valeur par défaut de l&#39;environnement du serveur.');
    assert.match(res.body, /<h2 id="operator-gaps-title">Réglages incomplets<\/h2>/);
    assert.match(res.body, /Virements : aucun lot ni fichier SEPA, ni facture payable par virement, tant que manque ou n'est pas valide : BIC\./);
    assert.ok(!res.body.includes('Factures : aucun document'), 'the identity is complete');

    const saved = await call(staff, 'PATCH', '/api/staff/operator', { name: 'Odentas <script>alert(1)</script>', bic: 'BNPAFRPP' });
    assert.equal(saved.statusCode, 200, saved.body);
    const after = await call(staff, 'GET', '/staff/operateur');
    assert.equal(inputValue(after.body, 'operator-name'), 'Odentas &lt;script&gt;alert(1)&lt;/script&gt;');
    assert.ok(!after.body.includes('<script>alert(1)'));
    assert.equal(textOf(after.body, 'operator-bic-origin'), 'Enregistré ici.');
    assert.equal(textOf(after.body, 'operator-gaps'), 'Tout est renseigné : factures et fichiers SEPA peuvent être produits.');
  });

  it('should be refused to a member of an organization', async (t) => {
    const { call, admin } = await setup(t);
    const res = await call(admin, 'GET', '/staff/operateur', undefined, { accept: 'text/html' });
    assert.equal(res.statusCode, 403);
  });
});
