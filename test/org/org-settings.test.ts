import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { CommandError, runCommand } from '../../src/cli/commands.ts';

describe('organization fields (MODULES 2)', () => {
  it('should give a new organization empty lists and virements_salaires client', async (t) => {
    const { database } = await build(t);
    const id = await createOrg(database.db, 'Théâtre', 'T1');
    const row = await database.db.selectFrom('organizations').select(['email_notifs', 'email_notifs_cc', 'virements_salaires', 'documents_slug', 'siret']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { email_notifs: [], email_notifs_cc: [], virements_salaires: 'client', documents_slug: null, siret: null });
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
    const patch = (cookie: string, orgId: string, payload: object) => app.inject({ method: 'PATCH', url: `/api/staff/orgs/${orgId}`, headers: { cookie }, payload });

    const res = await patch(staff.cookie, id, { email_notifs: ['Paie@Soleil.fr', 'direction@soleil.fr'], email_notifs_cc: ['expert@cabinet.fr'], virements_salaires: 'Odentas', documents_slug: 'theatre-du-soleil', siret: '12345678900012' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual({ ...(res.json() as object), created_at: undefined }, {
      id, name: 'Théâtre du Soleil', structure_api: 'TDS001', email_notifs: ['paie@soleil.fr', 'direction@soleil.fr'], email_notifs_cc: ['expert@cabinet.fr'],
      virements_salaires: 'Odentas', documents_slug: 'theatre-du-soleil', siret: '12345678900012', created_at: undefined,
    });
    const partial = await patch(staff.cookie, id, { email_notifs_cc: [] });
    assert.deepEqual(partial.json().email_notifs_cc, []);
    assert.deepEqual(partial.json().email_notifs, ['paie@soleil.fr', 'direction@soleil.fr']);
    const event = await db.selectFrom('module_events').select(['action', 'actor_email', 'details']).where('subject_id', '=', id).orderBy('id', 'desc').executeTakeFirstOrThrow();
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
    assert.deepEqual((await patch(staff.cookie, '5c6b1d3e-0000-4000-8000-000000000000', { siret: null })).json(), { error: 'not_found', message: 'Organisation introuvable' });
    assert.equal((await patch(staff.cookie, 'nope', { siret: null })).statusCode, 404);
    const refused = await patch(admin.cookie, id, { virements_salaires: 'client' });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
    assert.equal((await app.inject({ method: 'PATCH', url: `/api/staff/orgs/${id}`, payload: {} })).statusCode, 401);
  });
});

describe('org update (command line)', () => {
  it('should set the lists and the transfer mode, and refuse wrong values in one line', async (t) => {
    const { database, config } = await build(t);
    const ctx = { db: database.db, config };
    const id = await createOrg(database.db, 'Opéra', 'OP1');
    const result = (await runCommand(ctx, 'org update', { id, 'email-notifs': 'a@opera.fr, B@opera.fr', 'virements-salaires': 'Odentas' })) as Record<string, unknown>;
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
      await assert.rejects(runCommand(ctx, 'org update', args), (error: unknown) => error instanceof CommandError && pattern.test(error.message) && !error.message.includes('\n'));
    }
  });
});
