import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyOrgSettings, type OrgSettings } from '../../src/org/org-settings.rules.ts';
import { code } from '../support/rules.ts';

const NEW_ORG: OrgSettings = {
  email_notifs: [],
  email_notifs_cc: [],
  virements_salaires: 'client',
  documents_slug: null,
  siret: null,
  effectif: 1,
  convention: 'SVP',
  categorie_juridique: 'association',
  taux_at: null,
  address_line: null,
  postcode: null,
  city: null,
  country: 'FR',
  ape_code: null,
  urssaf: null,
};

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
    assert.equal(
      code(() => applyOrgSettings(NEW_ORG, { email_notifs: ['pas-une-adresse'] })),
      '400 invalid_email_notifs',
    );
    assert.equal(
      code(() => applyOrgSettings(NEW_ORG, { email_notifs_cc: [42] })),
      '400 invalid_email_notifs_cc',
    );
    assert.equal(
      code(() => applyOrgSettings(NEW_ORG, { email_notifs: Array.from({ length: 21 }, (_, i) => `a${i}@x.fr`) })),
      '400 invalid_email_notifs',
    );
    assert.equal(
      code(() => applyOrgSettings(NEW_ORG, { virements_salaires: 'odentas' })),
      '400 invalid_virements_salaires',
    );
    assert.equal(
      code(() => applyOrgSettings(NEW_ORG, { documents_slug: 'Théâtre du Soleil' })),
      '400 invalid_documents_slug',
    );
    assert.equal(
      code(() => applyOrgSettings(NEW_ORG, { siret: '1234' })),
      '400 invalid_siret',
    );
  });
});

describe('applyOrgSettings: the payroll inputs', () => {
  it('should set effectif, convention, categorie_juridique and taux_at, normalized', () => {
    assert.deepEqual(applyOrgSettings(NEW_ORG, { effectif: 12, convention: 'droit_commun', categorie_juridique: 'SARL', taux_at: '2.3' }), {
      ...NEW_ORG,
      effectif: 12,
      convention: 'droit_commun',
      categorie_juridique: 'SARL',
      taux_at: '2.30',
    });
    // The command line gives text; a rate in the form of vat_rate: a string or a number, two decimals at most.
    assert.equal(applyOrgSettings(NEW_ORG, { effectif: ' 250 ' }).effectif, 250);
    assert.equal(applyOrgSettings(NEW_ORG, { taux_at: 1.5 }).taux_at, '1.50');
    assert.equal(applyOrgSettings(NEW_ORG, { taux_at: 0 }).taux_at, '0.00');
    assert.equal(applyOrgSettings(NEW_ORG, { taux_at: '100' }).taux_at, '100.00');
    for (const categorie of ['association', 'SARL', 'SAS', 'SELARL', 'SELAS', 'EI', 'autre']) {
      assert.equal(applyOrgSettings(NEW_ORG, { categorie_juridique: categorie }).categorie_juridique, categorie);
    }
  });
  it('should clear taux_at with null or empty', () => {
    const set = { ...NEW_ORG, taux_at: '2.30' };
    assert.equal(applyOrgSettings(set, { taux_at: null }).taux_at, null);
    assert.equal(applyOrgSettings(set, { taux_at: '' }).taux_at, null);
    assert.equal(applyOrgSettings(set, { effectif: 3 }).taux_at, '2.30', 'left as it was');
  });
  it('should refuse wrong values with invalid_<field>', () => {
    for (const effectif of [0, -1, 1.5, '1.5', 'douze', '', null, true, [3], 2_147_483_648, 1e21]) {
      assert.equal(
        code(() => applyOrgSettings(NEW_ORG, { effectif })),
        '400 invalid_effectif',
        JSON.stringify(effectif),
      );
    }
    for (const convention of ['svp', 'droit commun', '', null, 1]) {
      assert.equal(
        code(() => applyOrgSettings(NEW_ORG, { convention })),
        '400 invalid_convention',
        JSON.stringify(convention),
      );
    }
    for (const categorie_juridique of ['sarl', 'SA', '', null]) {
      assert.equal(
        code(() => applyOrgSettings(NEW_ORG, { categorie_juridique })),
        '400 invalid_categorie_juridique',
        JSON.stringify(categorie_juridique),
      );
    }
    for (const taux_at of ['100.01', 101, -1, '-0.5', '2.345', 2.345, 'abc', '2,3', true, {}]) {
      assert.equal(
        code(() => applyOrgSettings(NEW_ORG, { taux_at })),
        '400 invalid_taux_at',
        JSON.stringify(taux_at),
      );
    }
  });
});

describe('applyOrgSettings: the mentions of the bulletin', () => {
  it('should store the APE code as 9001Z, from 9001Z, 90.01Z or 9001z, and the URSSAF trimmed', () => {
    for (const typed of ['9001Z', '90.01Z', ' 9001z ']) assert.equal(applyOrgSettings(NEW_ORG, { ape_code: typed }).ape_code, '9001Z', typed);
    assert.equal(applyOrgSettings(NEW_ORG, { urssaf: '  Urssaf   Île-de-France ' }).urssaf, 'Urssaf Île-de-France');
    const set = { ...NEW_ORG, ape_code: '9001Z', urssaf: 'Urssaf Bretagne' };
    assert.deepEqual(applyOrgSettings(set, { ape_code: null, urssaf: '' }), NEW_ORG);
  });
  it('should refuse a code that is not four digits and a letter, and an URSSAF over 120 characters', () => {
    for (const ape_code of ['900Z', '9001', '90-01Z', '9001ZZ', 'ABCDE', 9001, true]) {
      assert.equal(
        code(() => applyOrgSettings(NEW_ORG, { ape_code })),
        '400 invalid_ape_code',
        JSON.stringify(ape_code),
      );
    }
    for (const urssaf of ['x'.repeat(121), 'Urssaf\u0000', 42]) {
      assert.equal(
        code(() => applyOrgSettings(NEW_ORG, { urssaf })),
        '400 invalid_urssaf',
        JSON.stringify(urssaf),
      );
    }
    assert.equal(applyOrgSettings(NEW_ORG, { urssaf: 'x'.repeat(120) }).urssaf?.length, 120);
  });
});
