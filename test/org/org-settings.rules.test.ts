import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyOrgSettings, type OrgSettings } from '../../src/org/org-settings.rules.ts';
import { code } from '../support/rules.ts';

const NEW_ORG: OrgSettings = { email_notifs: [], email_notifs_cc: [], virements_salaires: 'client', documents_slug: null, siret: null };

describe('applyOrgSettings', () => {
  it('should set the fields given, normalized, and keep the others', () => {
    const next = applyOrgSettings(NEW_ORG, {
      email_notifs: [' Paie@Theatre.fr', 'compta@theatre.fr', 'paie@theatre.fr'],
      virements_salaires: 'Odentas',
      siret: '123 456 789 00012',
    });
    assert.deepEqual(next, { ...NEW_ORG, email_notifs: ['paie@theatre.fr', 'compta@theatre.fr'], virements_salaires: 'Odentas', siret: '12345678900012' });
  });
  it('should read a comma-separated list (the command line) and clear with null or empty', () => {
    assert.deepEqual(applyOrgSettings(NEW_ORG, { email_notifs_cc: 'a@x.fr,b@y.fr' }).email_notifs_cc, ['a@x.fr', 'b@y.fr']);
    const set = { ...NEW_ORG, email_notifs: ['a@x.fr'], documents_slug: 'theatre-du-soleil', siret: '12345678900012' };
    assert.deepEqual(applyOrgSettings(set, { email_notifs: null, documents_slug: '', siret: null }), NEW_ORG);
  });
  it('should refuse wrong values with invalid_<field>', () => {
    assert.equal(code(() => applyOrgSettings(NEW_ORG, { email_notifs: ['pas-une-adresse'] })), '400 invalid_email_notifs');
    assert.equal(code(() => applyOrgSettings(NEW_ORG, { email_notifs_cc: [42] })), '400 invalid_email_notifs_cc');
    assert.equal(code(() => applyOrgSettings(NEW_ORG, { email_notifs: Array.from({ length: 21 }, (_, i) => `a${i}@x.fr`) })), '400 invalid_email_notifs');
    assert.equal(code(() => applyOrgSettings(NEW_ORG, { virements_salaires: 'odentas' })), '400 invalid_virements_salaires');
    assert.equal(code(() => applyOrgSettings(NEW_ORG, { documents_slug: 'Théâtre du Soleil' })), '400 invalid_documents_slug');
    assert.equal(code(() => applyOrgSettings(NEW_ORG, { siret: '1234' })), '400 invalid_siret');
  });
});
