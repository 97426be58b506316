/**
 * What people walking the access pages ran into, checked on the server side; the
 * browser side is in test/e2e/pages.e2e.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite, build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { ensureAccount, issueOneTimeToken } from '../../src/identity/identity.service.ts';
import { memberCountText, roleChangeText } from '../../src/pages/vos-acces.ts';

// One app for the tests that make their own organizations and people; the organization search and
// the staff team read every organization or staff member, and build their own.
const suite = appPerSuite();

describe('unknown addresses', () => {
  it('should answer a browser with a French HTML page, and the API and other clients with JSON', async () => {
    const { app } = suite();
    const page = await app.inject({ method: 'GET', url: '/nope', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.equal(page.statusCode, 404);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.body, /<html lang="fr">/);
    assert.match(page.body, /<h1 id="not-found-title">Page introuvable<\/h1>/);
    // A visitor is offered the sign-in, and no bar.
    assert.match(page.body, /<a href="\/login">Se connecter<\/a>/);
    assert.doesNotMatch(page.body, /class="main-nav"/);

    for (const [url, accept] of [
      ['/api/nope', 'text/html'],
      ['/nope', 'application/json'],
      ['/nope', '*/*'],
      ['/auth/nope', 'text/html'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers: { accept } });
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), { error: 'not_found', message: 'Ressource introuvable.' }, `${url} ${accept}`);
    }
    const post = await app.inject({ method: 'POST', url: '/nope', headers: { accept: 'text/html' }, payload: {} });
    assert.equal(post.json().error, 'not_found');
  });
});

describe('unknown addresses, signed in', () => {
  it("should keep the person's bar and lead to their role's page, never offering the sign-in", async () => {
    const { app, database } = suite();
    const db = database.db;
    const org = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    const compta = await member(app, db, org, 'compta@soleil.example', 'COMPTA');
    const staff = await signedIn(app, db, 'staff@unknown-addresses.example', { staff: 'STAFF' });
    const html = { accept: 'text/html' };
    const forCompta = await app.inject({ method: 'GET', url: '/contrats-perdus', headers: { ...html, cookie: compta.cookie } });
    assert.equal(forCompta.statusCode, 404);
    assert.match(forCompta.body, /<h1 id="not-found-title">Page introuvable<\/h1>/);
    assert.match(forCompta.body, /<nav class="main-nav" aria-label="Rubriques">/);
    assert.deepEqual(
      [...forCompta.body.matchAll(/<li><a href="([^"]+)"/g)].map((m) => m[1]),
      ['/paie', '/factures', '/vos-acces'],
    );
    assert.match(forCompta.body, /<a class="button" id="refusal-home" href="\/factures">Aller aux factures et paiements<\/a>/);
    assert.match(forCompta.body, /compta@soleil\.example/);
    assert.doesNotMatch(forCompta.body, /Se connecter/);
    const forStaff = await app.inject({ method: 'GET', url: '/staff/nulle-part', headers: { ...html, cookie: staff.cookie } });
    assert.equal(forStaff.statusCode, 404);
    assert.match(forStaff.body, /<a class="button" id="refusal-home" href="\/staff\/organisations">Aller aux organisations<\/a>/);
    assert.doesNotMatch(forStaff.body, /Se connecter/);
  });
});

describe('organization search', () => {
  it('should ignore case and accents in names and keys', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    await createOrg(db, 'Compagnie Lumière', 'CLU002');
    await createOrg(db, 'Œuvre Ÿ', 'ÉLAN9');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const search = async (q: string) => {
      const res = await app.inject({ method: 'GET', url: `/api/staff/orgs?q=${encodeURIComponent(q)}`, headers: { cookie: staff.cookie } });
      assert.equal(res.statusCode, 200, q);
      return res.json().items.map((o: { name: string }) => o.name);
    };
    for (const q of ['theatre', 'THEATRE', 'Théâtre', 'théatre du', 'tds', 'tds001']) assert.deepEqual(await search(q), ['Théâtre du Soleil'], q);
    assert.deepEqual(await search('lumiere'), ['Compagnie Lumière']);
    assert.deepEqual(await search('elan'), ['Œuvre Ÿ']);
    assert.deepEqual(await search('oeuvre'), ['Œuvre Ÿ']);
    // LIKE's own characters are still taken literally.
    assert.deepEqual(await search('%'), []);
    assert.deepEqual(await search('_'), []);
  });
});

describe('DELETE /api/staff/active-org', () => {
  it('should take staff back to no organization: settings and hint cookies cleared', async () => {
    const { app, database } = suite();
    const db = database.db;
    const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS002');
    const staff = await signedIn(app, db, 'staff@active-org.example', { staff: 'STAFF' });
    await app.inject({ method: 'PUT', url: '/api/staff/active-org', headers: { cookie: staff.cookie }, payload: { org_id: orgId } });
    const res = await app.inject({ method: 'DELETE', url: '/api/staff/active-org', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true });
    for (const name of ['active_org_id', 'active_org_key', 'active_org_name_b64']) {
      const cleared = res.cookies.find((c) => c.name === name);
      assert.equal(cleared?.value, '', name);
    }
    const settings = await db.selectFrom('staff_settings').select('active_org_id').where('user_id', '=', staff.userId).executeTakeFirst();
    assert.equal(settings?.active_org_id, null);
    // No cookie, nothing saved: the global list, org_id filled.
    const list = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: staff.cookie } });
    assert.equal(list.statusCode, 200);
    const page = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: staff.cookie } });
    assert.match(page.body, /Vue globale : toutes les organisations/);

    const admin = await member(app, db, orgId, 'admin@active-org.example', 'ADMIN');
    const refused = await app.inject({ method: 'DELETE', url: '/api/staff/active-org', headers: { cookie: admin.cookie } });
    assert.equal(refused.statusCode, 403);
    assert.equal((await app.inject({ method: 'DELETE', url: '/api/staff/active-org' })).statusCode, 401);
  });
});

describe('POST /auth/session/account', () => {
  it("should name a link's account without using the link", async () => {
    const { app, database } = suite();
    const db = database.db;
    const { account } = await ensureAccount(db, 'nina@example.com', {});
    const token = await issueOneTimeToken(db, account.id, 'invite');
    const res = await app.inject({ method: 'POST', url: '/auth/session/account', payload: { token } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { email: 'nina@example.com' });
    // Still usable.
    const session = await app.inject({ method: 'POST', url: '/auth/session', payload: { token } });
    assert.equal(session.statusCode, 200);
    // Used now: the same answer as a wrong token.
    for (const payload of [{ token }, { token: 'nope' }, {}]) {
      const bad = await app.inject({ method: 'POST', url: '/auth/session/account', payload });
      assert.equal(bad.statusCode, 401);
      assert.equal(bad.json().error, 'invalid_token');
    }
  });
});

describe('/staff/equipe', () => {
  it('should show staff their team, offer SUPER_STAFF only to a SUPER_STAFF, and send others away', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Théâtre du Soleil');
    const boss = await signedIn(app, db, 'boss@ops.example', { staff: 'SUPER_STAFF', metadata: { first_name: 'Léa' } });
    const staff = await signedIn(app, db, 'sam@ops.example', { staff: 'STAFF' });
    const other = await signedIn(app, db, 'old@ops.example', { staff: 'STAFF' });
    await app.inject({ method: 'DELETE', url: `/api/staff/users/${other.userId}`, headers: { cookie: boss.cookie } });
    const admin = await member(app, db, orgId, 'admin@example.com', 'ADMIN');

    assert.equal((await app.inject({ method: 'GET', url: '/staff/equipe' })).headers.location, '/login');
    assert.equal((await app.inject({ method: 'GET', url: '/staff/equipe', headers: { cookie: admin.cookie } })).headers.location, '/vos-acces');

    const levels = (body: string) =>
      [.../<select id="team-level" name="level">([\s\S]*?)<\/select>/.exec(body)![1]!.matchAll(/<option value="([A-Z_]+)">([^<]+)</g)].map(
        (m) => `${m[1]}:${m[2]}`,
      );
    const asBoss = await app.inject({ method: 'GET', url: '/staff/equipe', headers: { cookie: boss.cookie } });
    assert.equal(asBoss.statusCode, 200);
    assert.equal(asBoss.headers['cache-control'], 'no-store');
    assert.match(asBoss.body, /<a href="\/staff\/equipe" aria-current="page">Équipe interne<\/a>/);
    assert.match(asBoss.body, /<a href="\/vos-acces">Accès<\/a>/);
    assert.deepEqual(levels(asBoss.body), ['STAFF:Membre (équipe interne)', 'SUPER_STAFF:Super-administrateur (équipe interne)']);
    assert.match(asBoss.body, /2 membres actifs · 1 retiré\(s\)/);
    const rows = [...asBoss.body.matchAll(/<tr data-user-id="([^"]+)" data-email="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => ({ email: m[2], html: m[3]! }));
    assert.deepEqual(
      rows.map((r) => r.email),
      ['old@ops.example', 'sam@ops.example', 'boss@ops.example'],
    );
    assert.match(rows[0]!.html, /Retiré\(e\)<\/span> <span class="muted">le \d{2}\/\d{2}\/\d{4}/);
    assert.doesNotMatch(rows[0]!.html, /data-action/);
    assert.match(rows[1]!.html, /data-action="revoke"/);
    assert.match(rows[2]!.html, /<span class="muted">Vous<\/span>/);

    const asStaff = await app.inject({ method: 'GET', url: '/staff/equipe', headers: { cookie: staff.cookie } });
    assert.deepEqual(levels(asStaff.body), ['STAFF:Membre (équipe interne)']);
    assert.match(asStaff.body, /<tr data-user-id="[^"]+" data-email="boss@ops\.example">[\s\S]*?<span class="muted">Protégé<\/span>/);
  });
});

describe('words', () => {
  it('should show a role once when it did not change', () => {
    assert.equal(roleChangeText('AGENT', 'AGENT'), 'Agent');
    assert.equal(roleChangeText('AGENT', 'ADMIN'), 'Agent → Administrateur');
    assert.equal(roleChangeText(null, 'COMPTA'), 'Comptabilité');
    assert.equal(roleChangeText('COMPTA', null), 'Comptabilité');
    assert.equal(roleChangeText(null, null), '—');
  });

  it('should say what the member count counts', () => {
    const active = { revoked: false, activated: true };
    assert.equal(memberCountText([active]), '1 membre actif ou invité');
    assert.equal(
      memberCountText([active, active, { revoked: false, activated: false }, { revoked: true, activated: true }]),
      '3 membres actifs ou invités (dont 1 invitation en attente) · 1 accès révoqué',
    );
  });
});

describe('OpenAPI', () => {
  it('should describe the session cookie and which routes need it', async () => {
    const { app } = suite();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.deepEqual(doc.components.securitySchemes.session, {
      type: 'apiKey',
      in: 'cookie',
      name: 'session',
      description: 'The `session` cookie set by `POST /auth/session` (a one-time link exchanged for a session).',
    });
    assert.deepEqual(doc.paths['/api/access'].get.security, [{ session: [] }]);
    assert.deepEqual(doc.paths['/api/staff/users/invite'].post.security, [{ session: [] }]);
    assert.deepEqual(doc.paths['/api/me'].get.security, [{ session: [] }]);
    assert.equal(doc.paths['/auth/session'].post.security, undefined);
    assert.equal(doc.paths['/auth/magic-link'].post.security, undefined);
  });
});
