import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addMember } from '../../src/access/access.service.ts';
import { build } from '../helper.ts';
import { createOrg, linkToken, member, outbox, signedIn } from '../support/fixtures.ts';

async function setup(t: Parameters<typeof build>[0]) {
  const ctx = await build(t);
  const db = ctx.database.db;
  const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const admin = await member(ctx.app, db, orgId, 'admin@example.com', 'ADMIN', { metadata: { first_name: 'Alice' } });
  const post = (payload: unknown, cookie = admin.cookie, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: '/api/access', headers: { cookie, ...headers }, payload: payload as object });
  return { ...ctx, db, orgId, admin, post };
}

describe('POST /api/access', () => {
  it('should answer 401 plain Unauthorized without a session', async (t) => {
    const { app } = await build(t);
    const res = await app.inject({ method: 'POST', url: '/api/access', payload: { email: 'x@example.com' } });
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, 'Unauthorized');
  });

  it('should invite an unknown e-mail: account, membership, preferences, activation e-mail', async (t) => {
    const { app, db, orgId, post, config } = await setup(t);
    const res = await post({ email: '  New.Person@Example.COM ', role: 'compta', first_name: '  Nina ' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true, message: 'Invitation envoyée' });

    const account = await db.selectFrom('auth.users').selectAll().where('email', '=', 'new.person@example.com').executeTakeFirstOrThrow();
    assert.equal(account.activated_at, null);
    assert.deepEqual(account.user_metadata, { first_name: 'Nina', role: 'COMPTA', org_id: orgId, org_name: 'Théâtre du Soleil' });
    const membership = await db.selectFrom('organization_members').selectAll().where('user_id', '=', account.id).executeTakeFirstOrThrow();
    assert.equal(membership.org_id, orgId);
    assert.equal(membership.role, 'COMPTA');
    assert.equal(membership.revoked, false);
    const prefs = await db.selectFrom('user_auth_preferences').selectAll().where('user_id', '=', account.id).executeTakeFirstOrThrow();
    assert.equal(prefs.allow_magic_link, true);
    assert.equal(prefs.allow_password, false);

    const mails = await outbox(db);
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.recipient, 'new.person@example.com');
    assert.equal(mails[0]!.subject, 'Activez votre compte');
    assert.match(mails[0]!.text_body, /Théâtre du Soleil/);
    assert.ok(mails[0]!.text_body.includes(`${config.publicUrl}/activate#token=`));

    // The link activates the account and signs the member in.
    const signIn = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: linkToken(mails[0]!.text_body) } });
    assert.equal(signIn.statusCode, 200);
    const after = await db.selectFrom('auth.users').select('activated_at').where('id', '=', account.id).executeTakeFirstOrThrow();
    assert.ok(after.activated_at instanceof Date);
  });

  it('should store a null first_name in the invitation when none is given, and default the role to AGENT', async (t) => {
    const { db, post } = await setup(t);
    const res = await post({ email: 'plain@example.com' });
    assert.equal(res.json().message, 'Invitation envoyée');
    const account = await db.selectFrom('auth.users').selectAll().where('email', '=', 'plain@example.com').executeTakeFirstOrThrow();
    assert.equal(account.user_metadata.first_name, null);
    assert.equal(account.user_metadata.role, 'AGENT');
  });

  it('should add an existing account without any e-mail', async (t) => {
    const { app, db, orgId, post } = await setup(t);
    const existing = await signedIn(app, db, 'known@example.com');
    const res = await post({ email: 'KNOWN@example.com', role: 'ADMIN' });
    assert.deepEqual(res.json(), { ok: true, message: "Utilisateur ajouté à l'organisation" });
    const membership = await db.selectFrom('organization_members').selectAll()
      .where('org_id', '=', orgId).where('user_id', '=', existing.userId).executeTakeFirstOrThrow();
    assert.equal(membership.role, 'ADMIN');
    assert.equal((await outbox(db)).length, 0);
  });

  it('should change the role of a member and send the access-updated e-mail', async (t) => {
    const { app, db, orgId, post, config } = await setup(t);
    await member(app, db, orgId, 'agent@example.com', 'AGENT', { metadata: { first_name: 'Bruno' } });
    const res = await post({ email: 'agent@example.com', role: 'COMPTA' });
    assert.deepEqual(res.json(), { ok: true, message: "Utilisateur ajouté à l'organisation" });
    const mails = await outbox(db);
    assert.equal(mails.length, 1);
    const mail = mails[0]!;
    assert.equal(mail.recipient, 'agent@example.com');
    assert.equal(mail.subject, 'Vos accès ont été mis à jour');
    for (const fact of ['Bruno', 'Théâtre du Soleil', 'Ancien rôle : Agent', 'Nouveau rôle : Comptabilité', 'admin@example.com', `${config.publicUrl}/vos-acces`]) {
      assert.ok(mail.text_body.includes(fact), `text part lacks ${fact}`);
    }
    const year = String(new Date().getFullYear());
    assert.ok(mail.text_body.includes(year), 'text part lacks the date');
  });

  it('should send no e-mail when the role stays the same', async (t) => {
    const { app, db, orgId, post } = await setup(t);
    await member(app, db, orgId, 'agent@example.com', 'AGENT');
    const res = await post({ email: 'agent@example.com', role: 'agent' });
    assert.equal(res.statusCode, 200);
    assert.equal((await outbox(db)).length, 0);
  });

  it('should re-activate a revoked member (revoked back to false)', async (t) => {
    const { app, db, orgId, post } = await setup(t);
    const gone = await member(app, db, orgId, 'gone@example.com', 'AGENT', { revoked: true });
    await post({ email: 'gone@example.com', role: 'AGENT' });
    const row = await db.selectFrom('organization_members').selectAll()
      .where('org_id', '=', orgId).where('user_id', '=', gone.userId).executeTakeFirstOrThrow();
    assert.equal(row.revoked, false);
    assert.equal(row.revoked_at, null);
  });

  it('should answer 400 missing_email for an empty e-mail, and for a body that is not JSON', async (t) => {
    const { app, admin, post } = await setup(t);
    for (const payload of [{}, { email: '   ' }, { email: '' }]) {
      const res = await post(payload);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { error: 'missing_email', message: "L'email est requis" });
    }
    for (const body of ['{not json', '[1,2]', '"text"', 'null', '']) {
      const res = await app.inject({
        method: 'POST', url: '/api/access', headers: { cookie: admin.cookie, 'content-type': 'application/json' }, payload: body,
      });
      assert.equal(res.statusCode, 400, body);
      assert.equal(res.json().error, 'missing_email');
    }
    // The access API's rules (docs/access.md) also for a POST with no body and no content type, or a text/plain body.
    for (const headers of [{}, { 'content-type': 'text/plain' }]) {
      const res = await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie, ...headers }, ...('content-type' in headers ? { payload: 'x' } : {}) });
      assert.equal(res.statusCode, 400, JSON.stringify(headers));
      assert.deepEqual(res.json(), { error: 'missing_email', message: "L'email est requis" });
    }
  });

  it("should refuse a change of the caller's own role with 400 cannot_change_own_role, and keep the role", async (t) => {
    const { db, orgId, admin, post } = await setup(t);
    for (const role of ['AGENT', 'compta']) {
      const res = await post({ email: 'ADMIN@example.com', role });
      assert.equal(res.statusCode, 400, role);
      assert.deepEqual(res.json(), { error: 'cannot_change_own_role', message: 'Vous ne pouvez pas modifier votre propre rôle' });
    }
    const row = await db.selectFrom('organization_members').select(['role', 'revoked'])
      .where('org_id', '=', orgId).where('user_id', '=', admin.userId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { role: 'ADMIN', revoked: false });
    assert.equal((await outbox(db)).length, 0);
    // The same role is no change: answered as before.
    const same = await post({ email: 'admin@example.com', role: 'ADMIN' });
    assert.equal(same.statusCode, 200);
    assert.equal(same.json().message, "Utilisateur ajouté à l'organisation");
  });

  it('should answer 403 forbidden_role for SUPER_ADMIN, whatever its case', async (t) => {
    const { db, post } = await setup(t);
    for (const role of ['SUPER_ADMIN', 'super_admin', ' Super_Admin ']) {
      const res = await post({ email: 'x@example.com', role });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { error: 'forbidden_role', message: 'Le rôle SUPER_ADMIN ne peut être assigné' });
    }
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', 'x@example.com').execute()).length, 0);
  });

  it('should answer missing_email before forbidden_role (the order of docs/access.md)', async (t) => {
    const { post } = await setup(t);
    const res = await post({ email: '', role: 'SUPER_ADMIN' });
    assert.equal(res.json().error, 'missing_email');
  });

  it('should answer 400 invalid_role for a role outside ADMIN, AGENT, COMPTA', async (t) => {
    const { post } = await setup(t);
    const res = await post({ email: 'x@example.com', role: 'OWNER' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_role');
  });

  it('should answer 400 invalid_email for something that is not an address', async (t) => {
    const { post } = await setup(t);
    for (const email of ['not-an-email', 'a@b', 'x@example.com\r\nBcc: y@example.com']) {
      const res = await post({ email });
      assert.equal(res.statusCode, 400, email);
      assert.equal(res.json().error, 'invalid_email');
    }
  });

  it('should refuse to change the SUPER_ADMIN with 403 forbidden_role', async (t) => {
    const { app, db, orgId, post } = await setup(t);
    await member(app, db, orgId, 'boss@example.com', 'SUPER_ADMIN');
    const res = await post({ email: 'boss@example.com', role: 'AGENT' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error, 'forbidden_role');
    const row = await db.selectFrom('organization_members as m').innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select('m.role').where('u.email', '=', 'boss@example.com').executeTakeFirstOrThrow();
    assert.equal(row.role, 'SUPER_ADMIN');
  });

  it('should answer 403 Forbidden to an AGENT', async (t) => {
    const { app, db, orgId, post } = await setup(t);
    const agent = await member(app, db, orgId, 'agent@example.com', 'AGENT');
    const res = await post({ email: 'x@example.com' }, agent.cookie);
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
  });

  it("should use the body's org_id for a caller with no active membership, and check access there", async (t) => {
    const { app, db, orgId, post } = await setup(t);
    const outsider = await signedIn(app, db, 'outsider@example.com');
    let res = await post({ email: 'x@example.com', org_id: orgId }, outsider.cookie);
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
    const revokedAdmin = await member(app, db, orgId, 'revoked-admin@example.com', 'ADMIN', { revoked: true });
    res = await post({ email: 'x@example.com', org_id: orgId }, revokedAdmin.cookie);
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
    res = await post({ email: 'x@example.com' }, outsider.cookie);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'no_active_org', message: 'Aucune organisation active trouvée' });
  });

  it("should ignore the body's org_id when the caller's organization resolves", async (t) => {
    const { db, orgId, post } = await setup(t);
    const other = await createOrg(db, 'Other');
    await post({ email: 'x@example.com', org_id: other });
    const rows = await db.selectFrom('organization_members as m').innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select('m.org_id').where('u.email', '=', 'x@example.com').execute();
    assert.deepEqual(rows, [{ org_id: orgId }]);
  });

  it('should let staff add to the organization of a hint, of the body, or of their settings', async (t) => {
    const { app, db } = await setup(t);
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const viaHint = await createOrg(db, 'ViaHint', 'HINT');
    const viaBody = await createOrg(db, 'ViaBody');
    const viaSettings = await createOrg(db, 'ViaSettings');
    await db.insertInto('staff_settings').values({ user_id: staff.userId, active_org_id: viaSettings }).execute();
    const post = (payload: object, cookie: string) => app.inject({ method: 'POST', url: '/api/access', headers: { cookie }, payload });
    assert.equal((await post({ email: 'h@example.com' }, `${staff.cookie}; active_org_key=HINT`)).statusCode, 200);
    assert.equal((await post({ email: 'b@example.com', org_id: viaBody }, staff.cookie)).statusCode, 200);
    assert.equal((await post({ email: 's@example.com' }, staff.cookie)).statusCode, 200);
    const rows = await db.selectFrom('organization_members as m').innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select(['u.email', 'm.org_id']).where('u.email', 'in', ['h@example.com', 'b@example.com', 's@example.com']).orderBy('u.email').execute();
    assert.deepEqual(rows, [
      { email: 'b@example.com', org_id: viaBody },
      { email: 'h@example.com', org_id: viaHint },
      { email: 's@example.com', org_id: viaSettings },
    ]);
  });

  it('should answer no_active_org to staff with no organization anywhere, after validating the body', async (t) => {
    const { app, db } = await setup(t);
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const post = (payload: object) => app.inject({ method: 'POST', url: '/api/access', headers: { cookie: staff.cookie }, payload });
    assert.equal((await post({})).json().error, 'missing_email');
    const res = await post({ email: 'x@example.com' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'no_active_org');
  });

  it('should make one account, one membership and one e-mail from concurrent invitations of one e-mail', async (t) => {
    const { db, post } = await setup(t);
    const responses = await Promise.all(Array.from({ length: 20 }, () => post({ email: 'race@example.com', role: 'AGENT' })));
    assert.deepEqual([...new Set(responses.map((r) => r.statusCode))], [200]);
    assert.equal(responses.filter((r) => r.json().message === 'Invitation envoyée').length, 1);
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', 'race@example.com').execute()).length, 1);
    const memberships = await db.selectFrom('organization_members as m').innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select('m.role').where('u.email', '=', 'race@example.com').execute();
    assert.equal(memberships.length, 1);
    assert.equal((await outbox(db)).filter((m) => m.recipient === 'race@example.com').length, 1);
  });

  it("should count an address's invitations, five per 15 minutes, and refuse the sixth with 429 and nothing written", async (t) => {
    const { app, db, admin, post } = await setup(t);
    const hits = async () =>
      (await db.selectFrom('rate_limits').select('hits').where('key', '=', 'invitation limit@example.com').executeTakeFirst())?.hits;
    assert.equal((await post({ email: 'limit@example.com', first_name: 'Lina' })).json().message, 'Invitation envoyée');
    assert.equal(await hits(), 1);
    const account = await db.selectFrom('auth.users').select('id').where('email', '=', 'limit@example.com').executeTakeFirstOrThrow();
    const resend = () => app.inject({ method: 'POST', url: `/api/access/${account.id}/resend`, headers: { cookie: admin.cookie } });
    for (let i = 2; i <= 5; i++) assert.equal((await resend()).statusCode, 200, `invitation ${i}`);
    const sixth = await resend();
    assert.equal(sixth.statusCode, 429);
    assert.deepEqual(sixth.json(), { error: 'rate_limited', message: 'Trop de demandes : réessayez dans un moment.' });
    const retryAfter = Number(sixth.headers['retry-after']);
    assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    assert.equal(await hits(), 5);

    // The address again without an account (deleted meanwhile): still refused, and no account made.
    await db.deleteFrom('auth.users').where('id', '=', account.id).execute();
    const again = await post({ email: 'limit@example.com' });
    assert.equal(again.statusCode, 429);
    assert.equal(again.json().error, 'rate_limited');
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', 'limit@example.com').execute()).length, 0);
    assert.equal(await hits(), 5);
    assert.equal((await outbox(db)).filter((m) => m.recipient === 'limit@example.com').length, 5);
    // Another address is not held back.
    assert.equal((await post({ email: 'other@example.com' })).json().message, 'Invitation envoyée');
  });

  it('should answer 404 not_found, writing nothing, when the organization is deleted before the invitation is written', async (t) => {
    const { db, config, admin } = await setup(t);
    // The gate read the organization, which is deleted before the invitation's statement runs.
    const gone = await createOrg(db, 'Compagnie dissoute', 'GONE01');
    await db.deleteFrom('organizations').where('id', '=', gone).execute();
    const caller = { userId: admin.userId, email: 'admin@example.com', firstName: 'Alice', isStaff: false, staffLevel: null, sessionId: 'test' };
    const ctx = { db, config, scope: { caller, orgId: gone, role: 'ADMIN' as const, orgName: 'Compagnie dissoute' } };
    await assert.rejects(addMember(ctx, { email: 'late@example.com', role: 'AGENT', firstName: 'Léa' }), { status: 404, code: 'not_found' });
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', 'late@example.com').execute()).length, 0);
    assert.equal((await outbox(db)).length, 0);
  });

  it('should answer 413 to a body over 64 KiB', async (t) => {
    const { post } = await setup(t);
    const res = await post({ email: 'x@example.com', first_name: 'a'.repeat(70 * 1024) });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error, 'payload_too_large');
  });

  it('should record the audit trail of an invitation and a role change', async (t) => {
    const { app, admin, post } = await setup(t);
    await post({ email: 'new@example.com', role: 'AGENT' });
    await post({ email: 'new@example.com', role: 'COMPTA' });
    const res = await app.inject({ method: 'GET', url: '/api/access/events', headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 200);
    const items = res.json().items.map((e: Record<string, unknown>) => [e.action, e.actor_email, e.target_email, e.old_role, e.new_role]);
    assert.deepEqual(items, [
      ['role_changed', 'admin@example.com', 'new@example.com', 'AGENT', 'COMPTA'],
      ['invited', 'admin@example.com', 'new@example.com', null, 'AGENT'],
    ]);
    assert.equal(res.json().next_cursor, null);
  });
});
