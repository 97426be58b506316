import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite, build, type TestApp } from '../helper.ts';
import { addMembership, createOrg, member, signedIn } from '../support/fixtures.ts';
import { memberActions, type Member } from '../../src/pages/vos-acces.ts';
import { recordAccessEvent } from '../../src/audit/audit.repository.ts';

const LINK_SENT = 'Si un compte existe pour cette adresse, un lien de connexion vient d&#39;être envoyé.';
const XSS = '<img src=x onerror=alert(1)>';

/** The `data-…` values of every members-table row, in page order. */
function memberRows(body: string): Array<{ userId: string; email: string; role: string; html: string }> {
  const rows = [...body.matchAll(/<tr data-user-id="([^"]+)" data-email="([^"]+)" data-role="([^"]+)">([\s\S]*?)<\/tr>/g)];
  return rows.map((m) => ({ userId: m[1]!, email: m[2]!, role: m[3]!, html: m[4]! }));
}

let organizations = 0;

/** An organization of three members, at an address domain and with an employer key of its own. */
async function organization(ctx: TestApp) {
  const db = ctx.database.db;
  const tag = `t${++organizations}`;
  const at = (local: string) => `${local}@${tag}.example.com`;
  const key = `TDS-${tag}`;
  const orgId = await createOrg(db, 'Théâtre <du> Soleil', key);
  const boss = await member(ctx.app, db, orgId, at('boss'), 'SUPER_ADMIN', { metadata: { first_name: 'Béatrice' } });
  const admin = await member(ctx.app, db, orgId, at('admin'), 'ADMIN', { metadata: { first_name: 'Alice' } });
  const agent = await member(ctx.app, db, orgId, at('agent'), 'AGENT', { metadata: { first_name: XSS } });
  return { ...ctx, db, orgId, boss, admin, agent, at, key };
}

describe('GET /login', () => {
  it('should answer the French sign-in form with its script and the confirmation to show', async (t) => {
    const { app } = await build(t);
    const res = await app.inject({ method: 'GET', url: '/login' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.body, /^<!doctype html>\n<html lang="fr">/);
    assert.match(res.body, /<h1 id="login-title">Connexion<\/h1>/);
    assert.match(res.body, /<label for="email">Adresse e-mail<\/label>/);
    assert.match(res.body, /<button type="submit" class="button">Recevoir un lien de connexion<\/button>/);
    assert.ok(res.body.includes(`data-sent="${LINK_SENT}"`));
    assert.match(res.body, /<script type="module" src="\/assets\/login\.js"><\/script>/);
    assert.match(res.body, /<main id="contenu"/);
    assert.match(res.body, /role="status" aria-live="polite"/);
  });

  it('should send a signed-in person to / (the page of their role, refusals.pages.test.ts)', async (t) => {
    const { app, database } = await build(t);
    const person = await signedIn(app, database.db, 'ana@example.com');
    const res = await app.inject({ method: 'GET', url: '/login', headers: { cookie: person.cookie } });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/');
  });
});

describe('GET /activate', () => {
  it('should be public and offer a way to ask for a new link', async (t) => {
    const { app } = await build(t);
    const res = await app.inject({ method: 'GET', url: '/activate' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h1 id="activate-title">Activation de votre accès<\/h1>/);
    assert.match(res.body, /Vérification de votre lien…/);
    assert.match(res.body, /<script type="module" src="\/assets\/activate\.js"><\/script>/);
    assert.match(res.body, /<a href="\/login">Aller à la page de connexion<\/a>/);
    assert.match(res.body, /Recevoir un nouveau lien/);
  });
});

describe('GET /', () => {
  it("should lead a visitor to the sign-in page, a signed-in person to their role's page", async (t) => {
    const { app, database } = await build(t);
    const res = await app.inject({ method: 'GET', url: '/' });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/login');
    const person = await signedIn(app, database.db, 'ana@example.com');
    const signed = await app.inject({ method: 'GET', url: '/', headers: { cookie: person.cookie } });
    assert.equal(signed.headers.location, '/vos-acces', 'no organization: their accesses');
  });
});

describe('GET /vos-acces', () => {
  // One app for the tests that read only their own organization; the global view builds its own.
  const suite = appPerSuite();

  it('should redirect to /login without a session, or with a session that is not valid', async () => {
    const { app } = suite();
    for (const headers of [{}, { cookie: 'session=abcdefgh12.abcdefghijklmnopqrstuvwxyz' }]) {
      const res = await app.inject({ method: 'GET', url: '/vos-acces', headers });
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, '/login');
    }
  });

  it('should show an ADMIN the members newest first, with French roles and statuses', async () => {
    const { app, db, orgId, admin, at } = await organization(suite());
    const pending = await db
      .insertInto('auth.users')
      .values({ email: at('pending') })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Later than the fixture's members by a clear second: the embedded database's clock can give
    // two inserts a millisecond apart the same created_at, and the order would then be the ids'.
    const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
    await addMembership(db, orgId, pending.id, 'COMPTA', { createdAt: later(1) });
    const gone = await signedIn(app, db, at('gone'));
    await addMembership(db, orgId, gone.userId, 'AGENT', { revoked: true, createdAt: later(2) });

    const res = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 200);
    const api = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: admin.cookie } });
    const rows = memberRows(res.body);
    assert.deepEqual(
      rows.map((r) => r.email),
      api.json().items.map((i: { email: string }) => i.email),
    );
    assert.deepEqual(
      rows.map((r) => r.email),
      [at('gone'), at('pending'), at('agent'), at('admin'), at('boss')],
    );

    const byEmail = Object.fromEntries(rows.map((r) => [r.email, r.html]));
    assert.match(byEmail[at('gone')]!, /<span class="badge badge-revoked">Révoqué<\/span>/);
    assert.match(byEmail[at('pending')]!, /<span class="badge badge-pending">Invitation envoyée<\/span>/);
    assert.match(byEmail[at('pending')]!, /<td data-label="Rôle">Comptabilité<\/td>/);
    assert.match(byEmail[at('agent')]!, /<span class="badge badge-active">Actif<\/span>/);
    assert.match(byEmail[at('boss')]!, /<td data-label="Rôle">Administrateur principal<\/td>/);
    assert.match(res.body, /<h2 id="members-title" class="wrap" tabindex="-1">Membres de Théâtre &lt;du&gt; Soleil<\/h2>/);
    // What is counted, said: the revoked access apart, as the staff switcher counts.
    assert.match(res.body, /4 membres actifs ou invités \(dont 1 invitation en attente\) · 1 accès révoqué\. Du plus récent au plus ancien\./);
  });

  it('should escape a member name that carries markup', async () => {
    const { app, admin } = await organization(suite());
    const res = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: admin.cookie } });
    assert.match(
      res.body,
      /<td data-label="Prénom" class="name"><span class="clip " title="&lt;img src=x onerror=alert\(1\)&gt;">&lt;img src=x onerror=alert\(1\)&gt;<\/span><\/td>/,
    );
    assert.ok(!res.body.includes('<img'), 'no img element reaches the page');
    assert.ok(!res.body.includes('<du>'), 'nor the organization name markup');
  });

  it('should offer only the actions the API accepts', async () => {
    const { app, db, orgId, admin, boss, agent, at } = await organization(suite());
    const pending = await db
      .insertInto('auth.users')
      .values({ email: at('pending') })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addMembership(db, orgId, pending.id, 'COMPTA');
    const res = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: admin.cookie } });
    const rows = Object.fromEntries(memberRows(res.body).map((r) => [r.userId, r.html]));
    const actions = (html: string) => [...html.matchAll(/data-action="([a-z-]+)"/g)].map((m) => m[1]);

    assert.deepEqual(actions(rows[boss.userId]!), []);
    assert.match(rows[boss.userId]!, /Administrateur principal : protégé/);
    assert.deepEqual(actions(rows[admin.userId]!), []);
    assert.match(rows[admin.userId]!, /<span class="muted">Vous<\/span>/);
    assert.deepEqual(actions(rows[agent.userId]!), ['change-role', 'revoke']);
    assert.deepEqual(actions(rows[pending.id]!), ['change-role', 'resend', 'revoke']);
    // No form anywhere on the page can assign SUPER_ADMIN.
    assert.ok(!res.body.includes('value="SUPER_ADMIN"'));
    const inviteRoles = [.../<select id="invite-role" name="role" data-refresh>([\s\S]*?)<\/select>/.exec(res.body)![1]!.matchAll(/value="([A-Z_]+)"/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(inviteRoles, ['ADMIN', 'AGENT', 'COMPTA']);
    assert.match(res.body, /<option value="AGENT" selected>Agent<\/option>/);
  });

  it('should show the recent access history in French, newest first', async () => {
    const { app, admin, agent, at } = await organization(suite());
    await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: at('nina'), role: 'COMPTA' } });
    await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: at('agent'), role: 'ADMIN' } });
    await app.inject({ method: 'DELETE', url: `/api/access/${agent.userId}`, headers: { cookie: admin.cookie } });
    const res = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: admin.cookie } });
    const history = /<section class="card" id="history"[\s\S]*?<\/section>/.exec(res.body)![0];
    const rows = [...history.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
      .slice(1)
      .map((m) => [...m[1]!.matchAll(/<td data-label="[^"]+"[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, '').trim()));
    assert.deepEqual(
      rows.map((r) => r.slice(1)),
      [
        ['Révocation', at('admin'), at('agent'), 'Administrateur'],
        ['Changement de rôle', at('admin'), at('agent'), 'Agent → Administrateur'],
        ['Invitation', at('admin'), at('nina'), 'Comptabilité'],
      ],
    );
    assert.match(rows[0]![0]!, /^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
    assert.match(history, /Les 3 derniers changements, du plus récent au plus ancien\./);
  });

  it('should name the command line as the author of the changes it made', async () => {
    const { app, db, orgId, admin, agent, at } = await organization(suite());
    await recordAccessEvent(db, {
      org_id: orgId,
      action: 'added',
      actor_user_id: null,
      actor_email: 'cli',
      target_user_id: agent.userId,
      target_email: at('agent'),
      old_role: null,
      new_role: 'AGENT',
    });
    const res = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: admin.cookie } });
    assert.match(res.body, /<td data-label="Action">Ajout<\/td>\s*<td data-label="Par" class="email">Ligne de commande<\/td>/);
    // `member add` creating an account sends no e-mail: not an "Invitation".
    await recordAccessEvent(db, {
      org_id: orgId,
      action: 'invited',
      actor_user_id: null,
      actor_email: 'cli',
      target_user_id: agent.userId,
      target_email: at('agent'),
      old_role: 'AGENT',
      new_role: 'AGENT',
    });
    const again = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: admin.cookie } });
    assert.match(
      again.body,
      /<td data-label="Action">Ajout, sans e-mail \(compte créé\)<\/td>\s*<td data-label="Par" class="email">Ligne de commande<\/td>[\s\S]*?<td data-label="Rôle">Agent<\/td>/,
    );
  });

  it('should show an AGENT their own accesses and no members table', async () => {
    const { app, db, agent, at } = await organization(suite());
    const other = await createOrg(db, 'Ancienne Compagnie');
    await addMembership(db, other, agent.userId, 'COMPTA', { revoked: true });
    const res = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: agent.cookie } });
    assert.equal(res.statusCode, 200);
    assert.match(
      res.body,
      /<td data-label="Organisation" class="wrap">Théâtre &lt;du&gt; Soleil<\/td>\s*<td data-label="Rôle">Agent<\/td>\s*<td data-label="Statut"><span class="badge badge-active">Actif<\/span><\/td>/,
    );
    assert.match(
      res.body,
      /<td data-label="Organisation" class="wrap">Ancienne Compagnie<\/td>\s*<td data-label="Rôle">Comptabilité<\/td>\s*<td data-label="Statut"><span class="badge badge-revoked">Révoqué<\/span><\/td>/,
    );
    for (const absent of ['id="members"', 'id="invite-form"', 'id="history"', 'id="org-search"', at('admin'), at('boss')]) {
      assert.ok(!res.body.includes(absent), absent);
    }
    assert.match(res.body, /adressez-vous à un administrateur de votre organisation/);
    // The revoked access is explained: what, when, whom to ask.
    assert.match(res.body, /<section class="notice" id="revoked-notice"/);
    assert.match(
      res.body,
      /Votre accès à <strong>Ancienne Compagnie<\/strong> a été révoqué le \d\d\/\d\d\/\d{4} \d\d:\d\d par un administrateur de cette organisation\./,
    );
    assert.match(
      res.body,
      /adressez-vous à un administrateur de l'organisation : il peut rétablir votre accès\. Pour toute autre question, écrivez à <a href="mailto:support@example.com">support@example.com<\/a>/,
    );
  });

  it('should tell a member whose every access was revoked what happened, when and whom to ask', async () => {
    const { app, db, orgId, agent } = await organization(suite());
    await db
      .updateTable('organization_members')
      .set({ revoked: true, revoked_at: new Date('2026-03-12T09:30:00Z') })
      .where('user_id', '=', agent.userId)
      .execute();
    const res = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: agent.cookie } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h2 id="revoked-title">Votre accès a été retiré<\/h2>/);
    assert.match(res.body, /Votre accès à <strong>Théâtre &lt;du&gt; Soleil<\/strong> a été révoqué le 12\/03\/2026 10:30 par un administrateur/);
    assert.ok(!res.body.includes('id="no-manage"'), 'no advice about managing an organization one has left');
    assert.ok(orgId);
  });

  it('should show staff without an organization the switcher and nothing to manage', async (t) => {
    const { app, db, at } = await organization(await build(t));
    const staff = await signedIn(app, db, at('staff'), { staff: 'STAFF' });
    const res = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: staff.cookie } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<strong id="current-org-name">Vue globale : toutes les organisations<\/strong>/);
    assert.doesNotMatch(res.body, /membre d(&#39;|')aucune organisation/, 'staff are not told they belong nowhere');
    assert.match(res.body, /<a href="\/staff\/equipe">Gérer l'équipe interne<\/a>/);
    // The global view, every membership, with its organization.
    assert.match(res.body, /<section class="card" id="global"/);
    assert.match(res.body, /3 accès dans 1 organisation\./);
    assert.match(res.body, /<td data-label="Organisation"><span class="clip clip-wrap" title="Théâtre &lt;du&gt; Soleil">/);
    assert.ok(!res.body.includes('id="org-clear"'), 'already global');
    assert.match(res.body, /<input id="org-search" type="text" role="combobox"/);
    assert.match(res.body, /<label for="org-search">Changer d'organisation<\/label>/);
    assert.ok(!res.body.includes('id="members"'));
    assert.equal(
      res.cookies.find((c) => c.name === 'active_org_id'),
      undefined,
    );
  });

  it('should let staff give an organization its SUPER_ADMIN while it has none', async () => {
    const ctx = suite();
    const db = ctx.database.db;
    const orgId = await createOrg(db, 'Sans Chef', 'SC001');
    await member(ctx.app, db, orgId, 'agent@sans-chef.example.com', 'AGENT');
    const staff = await signedIn(ctx.app, db, 'staff@sans-chef.example.com', { staff: 'STAFF' });
    const roles = async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
      return [
        .../<select id="invite-role" name="role" data-refresh>([\s\S]*?)<\/select>/.exec(res.body)![1]!.matchAll(/<option value="([A-Z_]+)"[^>]*>([^<]+)</g),
      ].map((m) => `${m[1]}:${m[2]}`);
    };
    assert.deepEqual(await roles(), ['SUPER_ADMIN:Administrateur principal', 'ADMIN:Administrateur', 'AGENT:Agent', 'COMPTA:Comptabilité']);
    await member(ctx.app, db, orgId, 'boss@sans-chef.example.com', 'SUPER_ADMIN');
    assert.deepEqual(await roles(), ['ADMIN:Administrateur', 'AGENT:Agent', 'COMPTA:Comptabilité']);
    const back = await ctx.app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
    assert.match(back.body, /<button type="button" class="button button-small button-secondary" id="org-clear">Revenir à la vue globale/);
  });

  it("should leave staff's organization choices out of the organization's own history, and keep them for staff", async () => {
    const { app, db, orgId, admin, at } = await organization(suite());
    const staff = await signedIn(app, db, at('staff'), { staff: 'STAFF' });
    for (let i = 0; i < 3; i++) {
      const put = await app.inject({ method: 'PUT', url: '/api/staff/active-org', headers: { cookie: staff.cookie }, payload: { org_id: orgId } });
      assert.equal(put.statusCode, 200);
    }
    await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: at('nina') } });
    const actions = async (cookie: string) => {
      const res = await app.inject({ method: 'GET', url: '/api/access/events', headers: { cookie } });
      assert.equal(res.statusCode, 200);
      return res.json().items.map((e: { action: string }) => e.action);
    };
    assert.deepEqual(await actions(admin.cookie), ['invited']);
    assert.deepEqual(await actions(`${staff.cookie}; active_org_id=${orgId}`), [
      'invited',
      'active_org_selected',
      'active_org_selected',
      'active_org_selected',
    ]);
    const page = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: admin.cookie } });
    assert.ok(!page.body.includes('Organisation choisie par l&#39;équipe'));
    assert.match(page.body, /Un seul changement pour le moment\./);
    const staffPage = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
    assert.match(staffPage.body, /Organisation choisie par l&#39;équipe/);
  });

  it("should show staff the chosen organization's members, from the cookie or else their saved choice", async () => {
    const { app, db, orgId, at, key } = await organization(suite());
    const staff = await signedIn(app, db, at('staff'), { staff: 'SUPER_STAFF' });
    const viaCookie = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
    assert.ok(viaCookie.body.includes(`<strong id="current-org-name">Théâtre &lt;du&gt; Soleil</strong> <span class="muted">(clé employeur ${key})</span>`));
    assert.equal(memberRows(viaCookie.body).length, 3);
    assert.equal(
      viaCookie.cookies.find((c) => c.name === 'active_org_id'),
      undefined,
      'nothing to restore',
    );

    const put = await app.inject({ method: 'PUT', url: '/api/staff/active-org', headers: { cookie: staff.cookie }, payload: { org_id: orgId } });
    assert.equal(put.statusCode, 200);
    // A new browser: no cookie, the saved choice is shown and the cookie set again for the API.
    const fresh = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: staff.cookie } });
    assert.equal(memberRows(fresh.body).length, 3);
    const restored = fresh.cookies.find((c) => c.name === 'active_org_id');
    assert.equal(restored?.value, orgId);
    assert.equal(restored?.httpOnly, true);
    assert.equal(restored?.sameSite, 'Lax');
  });
});

describe('memberActions', () => {
  const viewer = { userId: 'me' };
  const base: Member = {
    org_id: null,
    user_id: 'u1',
    first_name: null,
    email: 'u1@example.com',
    role: 'AGENT',
    created_at: '2030-01-01T00:00:00.000Z',
    revoked: false,
    revoked_at: null,
    activated: true,
  };
  it('should follow the rules of the API', () => {
    assert.deepEqual(memberActions(viewer, base), ['change_role', 'revoke']);
    assert.deepEqual(memberActions(viewer, { ...base, activated: false }), ['change_role', 'resend', 'revoke']);
    assert.deepEqual(memberActions(viewer, { ...base, revoked: true }), ['reactivate']);
    assert.deepEqual(memberActions(viewer, { ...base, role: 'SUPER_ADMIN' }), []);
    assert.deepEqual(memberActions(viewer, { ...base, user_id: 'me' }), []);
    assert.deepEqual(memberActions(viewer, { ...base, email: 'Email non disponible' }), ['revoke']);
  });
});
