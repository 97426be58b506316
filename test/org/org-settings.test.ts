import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { CommandError, runCommand } from '../../src/cli/commands.ts';

describe('organization fields', () => {
  it('should give a new organization empty lists and virements_salaires client', async (t) => {
    const { database } = await build(t);
    const id = await createOrg(database.db, 'Théâtre', 'T1');
    const row = await database.db
      .selectFrom('organizations')
      .select(['email_notifs', 'email_notifs_cc', 'virements_salaires', 'documents_slug', 'siret', 'effectif', 'convention', 'categorie_juridique', 'taux_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, {
      email_notifs: [],
      email_notifs_cc: [],
      virements_salaires: 'client',
      documents_slug: null,
      siret: null,
      effectif: 1,
      convention: 'SVP',
      categorie_juridique: 'association',
      taux_at: null,
    });
  });
});

describe('the payroll inputs in the database (migration 2026_11_27_10_00_00_payroll_inputs)', () => {
  it('should refuse, by its check constraints, what the rules refuse', async (t) => {
    const { database } = await build(t);
    const db = database.db;
    const id = await createOrg(db, 'Théâtre', 'T1');
    for (const values of [{ effectif: 0 }, { convention: 'svp' }, { categorie_juridique: 'SA' }, { taux_at: '100.01' }, { taux_at: '-1' }] as const) {
      await assert.rejects(
        db
          .updateTable('organizations')
          .set(values as never)
          .where('id', '=', id)
          .execute(),
        /check constraint/,
        JSON.stringify(values),
      );
    }
    const employee = await db
      .insertInto('employees')
      .values({ org_id: id, first_name: 'Élise', last_name: 'Durand' })
      .returning(['id', 'cadre', 'pas_rate'])
      .executeTakeFirstOrThrow();
    assert.deepEqual([employee.cadre, employee.pas_rate], [false, null]);
    for (const pas_rate of ['100.01', '-0.01']) {
      await assert.rejects(db.updateTable('employees').set({ pas_rate }).where('id', '=', employee.id).execute(), /check constraint/, pas_rate);
    }
  });
});

describe('PATCH /api/staff/orgs/{id}', () => {
  it('should set the fields given and answer the organization', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const id = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    const other = await createOrg(db, 'Compagnie', 'C2');
    const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
    const admin = await member(app, db, id, 'admin@soleil.example', 'ADMIN');
    const patch = (cookie: string, orgId: string, payload: object) =>
      app.inject({ method: 'PATCH', url: `/api/staff/orgs/${orgId}`, headers: { cookie }, payload });

    const res = await patch(staff.cookie, id, {
      email_notifs: ['Paie@Soleil.fr', 'direction@soleil.fr'],
      email_notifs_cc: ['expert@cabinet.fr'],
      virements_salaires: 'Odentas',
      documents_slug: 'theatre-du-soleil',
      siret: '12345678900012',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      { ...(res.json() as object), created_at: undefined },
      {
        id,
        name: 'Théâtre du Soleil',
        structure_api: 'TDS001',
        email_notifs: ['paie@soleil.fr', 'direction@soleil.fr'],
        email_notifs_cc: ['expert@cabinet.fr'],
        virements_salaires: 'Odentas',
        documents_slug: 'theatre-du-soleil',
        siret: '12345678900012',
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
        created_at: undefined,
      },
    );
    const partial = await patch(staff.cookie, id, { email_notifs_cc: [] });
    assert.deepEqual(partial.json().email_notifs_cc, []);
    assert.deepEqual(partial.json().email_notifs, ['paie@soleil.fr', 'direction@soleil.fr']);
    const event = await db
      .selectFrom('module_events')
      .select(['action', 'actor_email', 'details'])
      .where('subject_id', '=', id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.deepEqual(event, { action: 'organization.updated', actor_email: 'staff@ops.example', details: { changed: ['email_notifs_cc'] } });

    const taken = await patch(staff.cookie, other, { documents_slug: 'theatre-du-soleil' });
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json().error, 'documents_slug_taken');
    for (const [payload, error] of [
      [{ virements_salaires: 'odentas' }, 'invalid_virements_salaires'],
      [{ email_notifs: ['pas une adresse'] }, 'invalid_email_notifs'],
      [{ email_notifs: { paie: 'paie@soleil.fr' } }, 'invalid_email_notifs'],
      [{ documents_slug: 'Théâtre' }, 'invalid_documents_slug'],
      [{ siret: '123' }, 'invalid_siret'],
    ] as const) {
      const bad = await patch(staff.cookie, id, payload);
      assert.equal(bad.statusCode, 400, JSON.stringify(payload));
      assert.equal(bad.json().error, error, JSON.stringify(payload));
    }
    assert.deepEqual((await patch(staff.cookie, '5c6b1d3e-0000-4000-8000-000000000000', { siret: null })).json(), {
      error: 'not_found',
      message: 'Organisation introuvable',
    });
    assert.equal((await patch(staff.cookie, 'nope', { siret: null })).statusCode, 404);
    const refused = await patch(admin.cookie, id, { virements_salaires: 'client' });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
    assert.equal((await app.inject({ method: 'PATCH', url: `/api/staff/orgs/${id}`, payload: {} })).statusCode, 401);
  });
});

describe('PATCH /api/staff/orgs/{id}: the payroll inputs', () => {
  it('should set effectif, convention, categorie_juridique and taux_at, clear taux_at with null, and refuse wrong values with 400', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const id = await createOrg(db, 'Festival des Nuits', 'FDN001');
    const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
    const patch = (payload: object) => app.inject({ method: 'PATCH', url: `/api/staff/orgs/${id}`, headers: { cookie: staff.cookie }, payload });
    const inputs = (body: Record<string, unknown>) => ({
      effectif: body.effectif,
      convention: body.convention,
      categorie_juridique: body.categorie_juridique,
      taux_at: body.taux_at,
    });

    // The defaults, answered by a PATCH that changes something else.
    const first = await patch({ siret: '12345678900012' });
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(inputs(first.json()), { effectif: 1, convention: 'SVP', categorie_juridique: 'association', taux_at: null });

    const set = await patch({ effectif: 25, convention: 'droit_commun', categorie_juridique: 'SAS', taux_at: '2.3' });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(inputs(set.json()), { effectif: 25, convention: 'droit_commun', categorie_juridique: 'SAS', taux_at: '2.30' });
    const row = await db
      .selectFrom('organizations')
      .select(['effectif', 'convention', 'categorie_juridique', 'taux_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { effectif: 25, convention: 'droit_commun', categorie_juridique: 'SAS', taux_at: '2.30' });
    const event = await db.selectFrom('module_events').select(['details']).where('subject_id', '=', id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.deepEqual(event.details, { changed: ['effectif', 'convention', 'categorie_juridique', 'taux_at'] });

    // A number with two decimals, as vat_rate; the limits 0 and 100.
    assert.equal((await patch({ taux_at: 1.75 })).json().taux_at, '1.75');
    assert.equal((await patch({ taux_at: 0 })).json().taux_at, '0.00');
    assert.equal((await patch({ taux_at: '100' })).json().taux_at, '100.00');
    assert.equal((await patch({ effectif: '3' })).json().effectif, 3);

    const cleared = await patch({ taux_at: null });
    assert.equal(cleared.statusCode, 200);
    assert.equal(cleared.json().taux_at, null);
    assert.equal(cleared.json().categorie_juridique, 'SAS', 'left as it was');

    for (const [payload, error] of [
      [{ effectif: 0 }, 'invalid_effectif'],
      [{ effectif: -3 }, 'invalid_effectif'],
      [{ effectif: 2.5 }, 'invalid_effectif'],
      [{ effectif: 'douze' }, 'invalid_effectif'],
      [{ effectif: null }, 'invalid_effectif'],
      [{ effectif: 99999999999 }, 'invalid_effectif'],
      [{ convention: 'svp' }, 'invalid_convention'],
      [{ convention: 'CCN' }, 'invalid_convention'],
      [{ convention: 3 }, 'invalid_convention'],
      [{ categorie_juridique: 'SA' }, 'invalid_categorie_juridique'],
      [{ categorie_juridique: 'sarl' }, 'invalid_categorie_juridique'],
      [{ taux_at: '100.01' }, 'invalid_taux_at'],
      [{ taux_at: -1 }, 'invalid_taux_at'],
      [{ taux_at: '2.345' }, 'invalid_taux_at'],
      [{ taux_at: '2,3' }, 'invalid_taux_at'],
      [{ taux_at: true }, 'invalid_taux_at'],
      [{ taux_at: { rate: 2 } }, 'invalid_taux_at'],
    ] as const) {
      const bad = await patch(payload);
      assert.equal(bad.statusCode, 400, JSON.stringify(payload));
      assert.equal(bad.json().error, error, JSON.stringify(payload));
      assert.equal(typeof bad.json().message, 'string', JSON.stringify(payload));
    }
    assert.match((await patch({ taux_at: 'abc' })).json().message, /^Le taux AT\/MP/);
    const after = await db
      .selectFrom('organizations')
      .select(['effectif', 'convention', 'categorie_juridique', 'taux_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(after, { effectif: 3, convention: 'droit_commun', categorie_juridique: 'SAS', taux_at: null }, 'a refused change changes nothing');
  });
});

describe('org update (command line)', () => {
  it('should set the lists and the transfer mode, and refuse wrong values in one line', async (t) => {
    const { database, config } = await build(t);
    const ctx = { db: database.db, config };
    const id = await createOrg(database.db, 'Opéra', 'OP1');
    const result = (await runCommand(ctx, 'org update', { id, 'email-notifs': 'a@opera.fr, B@opera.fr', 'virements-salaires': 'Odentas' })) as Record<
      string,
      unknown
    >;
    assert.deepEqual([result.email_notifs, result.email_notifs_cc, result.virements_salaires], [['a@opera.fr', 'b@opera.fr'], [], 'Odentas']);
    const cleared = (await runCommand(ctx, 'org update', { id, 'email-notifs': '' })) as Record<string, unknown>;
    assert.deepEqual(cleared.email_notifs, []);
    assert.equal(cleared.virements_salaires, 'Odentas', 'left as it was');
    for (const [args, pattern] of [
      [{ id, 'virements-salaires': 'banque' }, /^invalid_virements_salaires: /],
      [{ id, 'email-notifs-cc': 'x' }, /^invalid_email_notifs_cc: /],
      [{ id }, /nothing to update/],
      [{ id: 'nope', siret: '12345678900012' }, /--id "nope" is not an organization id/],
      [{ id: '5c6b1d3e-0000-4000-8000-000000000000', siret: '12345678900012' }, /^not_found: /],
    ] as const) {
      await assert.rejects(
        runCommand(ctx, 'org update', args),
        (error: unknown) => error instanceof CommandError && pattern.test(error.message) && !error.message.includes('\n'),
      );
    }
  });

  it('should set the payroll inputs (--effectif, --convention, --categorie-juridique, --taux-at), clear --taux-at with an empty value, and refuse wrong values', async (t) => {
    const { database, config } = await build(t);
    const ctx = { db: database.db, config };
    const id = await createOrg(database.db, 'Opéra', 'OP1');
    const inputs = (result: Record<string, unknown>) => [result.effectif, result.convention, result.categorie_juridique, result.taux_at];
    const set = (await runCommand(ctx, 'org update', {
      id,
      effectif: '42',
      convention: 'droit_commun',
      'categorie-juridique': 'SELARL',
      'taux-at': '1.8',
    })) as Record<string, unknown>;
    assert.deepEqual(inputs(set), [42, 'droit_commun', 'SELARL', '1.80']);
    const cleared = (await runCommand(ctx, 'org update', { id, 'taux-at': '' })) as Record<string, unknown>;
    assert.deepEqual(inputs(cleared), [42, 'droit_commun', 'SELARL', null]);
    for (const [args, pattern] of [
      [{ id, effectif: '0' }, /^invalid_effectif: /],
      [{ id, effectif: '' }, /^invalid_effectif: /],
      [{ id, convention: 'ccn' }, /^invalid_convention: /],
      [{ id, 'categorie-juridique': 'SA' }, /^invalid_categorie_juridique: /],
      [{ id, 'taux-at': '120' }, /^invalid_taux_at: /],
    ] as const) {
      await assert.rejects(
        runCommand(ctx, 'org update', args),
        (error: unknown) => error instanceof CommandError && pattern.test(error.message) && !error.message.includes('\n'),
      );
    }
  });
});
