import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addMember } from '../../src/access/access.service.ts';
import { appPerSuite } from '../helper.ts';
import { createOrg, linkToken, member, outbox, signedIn } from '../support/fixtures.ts';

// One app for the file: each test makes its own organization and people, at an address domain of
// its own, and reads only the e-mails queued since it began.
const suite = appPerSuite();
let tests = 0;

async function setup() {
  const ctx = suite();
  const db = ctx.database.db;
  const tag = `t${++tests}`;
  const domain = `${tag}.example.com`;
  const at = (local: string) => `${local}@${domain}`;
  const orgId = await createOrg(db, 'Théâtre du Soleil');
  const admin = await member(ctx.app, db, orgId, at('admin'), 'ADMIN', { metadata: { first_name: 'Alice' } });
  const post = (payload: unknown, cookie = admin.cookie, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: '/api/access', headers: { cookie, ...headers }, payload: payload as object });
  const queued = await outbox(db);
  const before = queued.length === 0 ? 0n : BigInt(queued.at(-1)!.id);
  /** The e-mails queued since the test began, oldest first. */
  const mails = async () => (await outbox(db)).filter((m) => BigInt(m.id) > before);
  return { ...ctx, db, orgId, admin, post, at, tag, mails };
}

describe('POST /api/access', () => {
  it('should answer 401 plain Unauthorized without a session', async () => {
    const { app } = suite();
    const res = await app.inject({ method: 'POST', url: '/api/access', payload: { email: 'x@example.com' } });
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, 'Unauthorized');
  });

  it('should invite an unknown e-mail: account, membership, preferences, activation e-mail', async () => {
    const { app, db, orgId, post, config, at, tag, mails: queued } = await setup();
    const res = await post({ email: `  New.Person@${tag.toUpperCase()}.Example.COM `, role: 'compta', first_name: '  Nina ' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true, message: 'Invitation envoyée' });

    const account = await db.selectFrom('auth.users').selectAll().where('email', '=', at('new.person')).executeTakeFirstOrThrow();
    assert.equal(account.activated_at, null);
    assert.deepEqual(account.user_metadata, { first_name: 'Nina', role: 'COMPTA', org_id: orgId, org_name: 'Théâtre du Soleil' });
    const membership = await db.selectFrom('organization_members').selectAll().where('user_id', '=', account.id).executeTakeFirstOrThrow();
    assert.equal(membership.org_id, orgId);
    assert.equal(membership.role, 'COMPTA');
    assert.equal(membership.revoked, false);
    const prefs = await db.selectFrom('user_auth_preferences').selectAll().where('user_id', '=', account.id).executeTakeFirstOrThrow();
    assert.equal(prefs.allow_magic_link, true);
    assert.equal(prefs.allow_password, false);

    const mails = await queued();
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.recipient, at('new.person'));
    assert.equal(mails[0]!.subject, 'Activez votre compte');
    assert.match(mails[0]!.text_body, /Théâtre du Soleil/);
    assert.ok(mails[0]!.text_body.includes(`${config.publicUrl}/activate#token=`));

    // The link activates the account and signs the member in.
    const signIn = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: linkToken(mails[0]!.text_body) } });
    assert.equal(signIn.statusCode, 200);
    const after = await db.selectFrom('auth.users').select('activated_at').where('id', '=', account.id).executeTakeFirstOrThrow();
    assert.ok(after.activated_at instanceof Date);
  });

  it('should store a null first_name in the invitation when none is given, and default the role to AGENT', async () => {
    const { db, post, at } = await setup();
    const res = await post({ email: at('plain') });
    assert.equal(res.json().message, 'Invitation envoyée');
    const account = await db.selectFrom('auth.users').selectAll().where('email', '=', at('plain')).executeTakeFirstOrThrow();
    assert.equal(account.user_metadata.first_name, null);
    assert.equal(account.user_metadata.role, 'AGENT');
  });

  it('should add an existing account without any e-mail', async () => {
    const { app, db, orgId, post, at, mails } = await setup();
    const existing = await signedIn(app, db, at('known'));
    const res = await post({ email: at('KNOWN'), role: 'ADMIN' });
    assert.deepEqual(res.json(), { ok: true, message: "Utilisateur ajouté à l'organisation" });
    const membership = await db
      .selectFrom('organization_members')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', existing.userId)
      .executeTakeFirstOrThrow();
    assert.equal(membership.role, 'ADMIN');
    assert.equal((await mails()).length, 0);
  });

  it('should change the role of a member and send the access-updated e-mail', async () => {
    const { app, db, orgId, post, config, at, mails: queued } = await setup();
    await member(app, db, orgId, at('agent'), 'AGENT', { metadata: { first_name: 'Bruno' } });
    const res = await post({ email: at('agent'), role: 'COMPTA' });
    assert.deepEqual(res.json(), { ok: true, message: "Utilisateur ajouté à l'organisation" });
    const mails = await queued();
    assert.equal(mails.length, 1);
    const mail = mails[0]!;
    assert.equal(mail.recipient, at('agent'));
    assert.equal(mail.subject, 'Vos accès ont été mis à jour');
    for (const fact of ['Bruno', 'Théâtre du Soleil', 'Ancien rôle : Agent', 'Nouveau rôle : Comptabilité', at('admin'), `${config.publicUrl}/vos-acces`]) {
      assert.ok(mail.text_body.includes(fact), `text part lacks ${fact}`);
    }
    const year = String(new Date().getFullYear());
    assert.ok(mail.text_body.includes(year), 'text part lacks the date');
  });

  it('should send no e-mail when the role stays the same', async () => {
    const { app, db, orgId, post, at, mails } = await setup();
    await member(app, db, orgId, at('agent'), 'AGENT');
    const res = await post({ email: at('agent'), role: 'agent' });
    assert.equal(res.statusCode, 200);
    assert.equal((await mails()).length, 0);
  });

  it('should re-activate a revoked member (revoked back to false)', async () => {
    const { app, db, orgId, post, at } = await setup();
    const gone = await member(app, db, orgId, at('gone'), 'AGENT', { revoked: true });
    await post({ email: at('gone'), role: 'AGENT' });
    const row = await db
      .selectFrom('organization_members')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', gone.userId)
      .executeTakeFirstOrThrow();
    assert.equal(row.revoked, false);
    assert.equal(row.revoked_at, null);
  });

  it('should answer 400 missing_email for an empty e-mail, and for a body that is not JSON', async () => {
    const { app, admin, post } = await setup();
    for (const payload of [{}, { email: '   ' }, { email: '' }]) {
      const res = await post(payload);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { error: 'missing_email', message: "L'email est requis" });
    }
    for (const body of ['{not json', '[1,2]', '"text"', 'null', '']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/access',
        headers: { cookie: admin.cookie, 'content-type': 'application/json' },
        payload: body,
      });
      assert.equal(res.statusCode, 400, body);
      assert.equal(res.json().error, 'missing_email');
    }
    // The access API's rules (docs/access.md) also for a POST with no body and no content type, or a text/plain body.
    for (const headers of [{}, { 'content-type': 'text/plain' }]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/access',
        headers: { cookie: admin.cookie, ...headers },
        ...('content-type' in headers ? { payload: 'x' } : {}),
      });
      assert.equal(res.statusCode, 400, JSON.stringify(headers));
      assert.deepEqual(res.json(), { error: 'missing_email', message: "L'email est requis" });
    }
  });

  it("should refuse a change of the caller's own role with 400 cannot_change_own_role, and keep the role", async () => {
    const { db, orgId, admin, post, at, mails } = await setup();
    for (const role of ['AGENT', 'compta']) {
      const res = await post({ email: at('ADMIN'), role });
      assert.equal(res.statusCode, 400, role);
      assert.deepEqual(res.json(), { error: 'cannot_change_own_role', message: 'Vous ne pouvez pas modifier votre propre rôle' });
    }
    const row = await db
      .selectFrom('organization_members')
      .select(['role', 'revoked'])
      .where('org_id', '=', orgId)
      .where('user_id', '=', admin.userId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { role: 'ADMIN', revoked: false });
    assert.equal((await mails()).length, 0);
    // The same role is no change: answered as before.
    const same = await post({ email: at('admin'), role: 'ADMIN' });
    assert.equal(same.statusCode, 200);
    assert.equal(same.json().message, "Utilisateur ajouté à l'organisation");
  });

  it('should answer 403 forbidden_role for SUPER_ADMIN, whatever its case', async () => {
    const { db, post, at } = await setup();
    for (const role of ['SUPER_ADMIN', 'super_admin', ' Super_Admin ']) {
      const res = await post({ email: at('x'), role });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { error: 'forbidden_role', message: 'Le rôle SUPER_ADMIN ne peut être assigné' });
    }
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', at('x')).execute()).length, 0);
  });

  it('should answer missing_email before forbidden_role (the order of docs/access.md)', async () => {
    const { post } = await setup();
    const res = await post({ email: '', role: 'SUPER_ADMIN' });
    assert.equal(res.json().error, 'missing_email');
  });

  it('should answer 400 invalid_role for a role outside ADMIN, AGENT, COMPTA', async () => {
    const { post, at } = await setup();
    const res = await post({ email: at('x'), role: 'OWNER' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_role');
  });

  it('should answer 400 invalid_email for something that is not an address', async () => {
    const { post } = await setup();
    for (const email of ['not-an-email', 'a@b', 'x@example.com\r\nBcc: y@example.com']) {
      const res = await post({ email });
      assert.equal(res.statusCode, 400, email);
      assert.equal(res.json().error, 'invalid_email');
    }
  });

  it('should refuse to change the SUPER_ADMIN with 403 forbidden_role', async () => {
    const { app, db, orgId, post, at } = await setup();
    await member(app, db, orgId, at('boss'), 'SUPER_ADMIN');
    const res = await post({ email: at('boss'), role: 'AGENT' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error, 'forbidden_role');
    const row = await db
      .selectFrom('organization_members as m')
      .innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select('m.role')
      .where('u.email', '=', at('boss'))
      .executeTakeFirstOrThrow();
    assert.equal(row.role, 'SUPER_ADMIN');
  });

  it('should answer 403 Forbidden to an AGENT', async () => {
    const { app, db, orgId, post, at } = await setup();
    const agent = await member(app, db, orgId, at('agent'), 'AGENT');
    const res = await post({ email: at('x') }, agent.cookie);
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
  });

  it("should use the body's org_id for a caller with no active membership, and check access there", async () => {
    const { app, db, orgId, post, at } = await setup();
    const outsider = await signedIn(app, db, at('outsider'));
    let res = await post({ email: at('x'), org_id: orgId }, outsider.cookie);
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
    const revokedAdmin = await member(app, db, orgId, at('revoked-admin'), 'ADMIN', { revoked: true });
    res = await post({ email: at('x'), org_id: orgId }, revokedAdmin.cookie);
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
    res = await post({ email: at('x') }, outsider.cookie);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'no_active_org', message: 'Aucune organisation active trouvée' });
  });

  it("should ignore the body's org_id when the caller's organization resolves", async () => {
    const { db, orgId, post, at } = await setup();
    const other = await createOrg(db, 'Other');
    await post({ email: at('x'), org_id: other });
    const rows = await db
      .selectFrom('organization_members as m')
      .innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select('m.org_id')
      .where('u.email', '=', at('x'))
      .execute();
    assert.deepEqual(rows, [{ org_id: orgId }]);
  });

  it('should let staff add to the organization of a hint, of the body, or of their settings', async () => {
    const { app, db, at, tag } = await setup();
    const staff = await signedIn(app, db, at('staff'), { staff: 'STAFF' });
    const viaHint = await createOrg(db, 'ViaHint', `HINT-${tag}`);
    const viaBody = await createOrg(db, 'ViaBody');
    const viaSettings = await createOrg(db, 'ViaSettings');
    await db.insertInto('staff_settings').values({ user_id: staff.userId, active_org_id: viaSettings }).execute();
    const post = (payload: object, cookie: string) => app.inject({ method: 'POST', url: '/api/access', headers: { cookie }, payload });
    assert.equal((await post({ email: at('h') }, `${staff.cookie}; active_org_key=HINT-${tag}`)).statusCode, 200);
    assert.equal((await post({ email: at('b'), org_id: viaBody }, staff.cookie)).statusCode, 200);
    assert.equal((await post({ email: at('s') }, staff.cookie)).statusCode, 200);
    const rows = await db
      .selectFrom('organization_members as m')
      .innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select(['u.email', 'm.org_id'])
      .where('u.email', 'in', [at('h'), at('b'), at('s')])
      .orderBy('u.email')
      .execute();
    assert.deepEqual(rows, [
      { email: at('b'), org_id: viaBody },
      { email: at('h'), org_id: viaHint },
      { email: at('s'), org_id: viaSettings },
    ]);
  });

  it('should answer no_active_org to staff with no organization anywhere, after validating the body', async () => {
    const { app, db, at } = await setup();
    const staff = await signedIn(app, db, at('staff'), { staff: 'STAFF' });
    const post = (payload: object) => app.inject({ method: 'POST', url: '/api/access', headers: { cookie: staff.cookie }, payload });
    assert.equal((await post({})).json().error, 'missing_email');
    const res = await post({ email: at('x') });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'no_active_org');
  });

  it('should make one account, one membership and one e-mail from concurrent invitations of one e-mail', async () => {
    const { db, post, at, mails } = await setup();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post({ email: at('race'), role: 'AGENT' })));
    assert.deepEqual([...new Set(responses.map((r) => r.statusCode))], [200]);
    assert.equal(responses.filter((r) => r.json().message === 'Invitation envoyée').length, 1);
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', at('race')).execute()).length, 1);
    const memberships = await db
      .selectFrom('organization_members as m')
      .innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select('m.role')
      .where('u.email', '=', at('race'))
      .execute();
    assert.equal(memberships.length, 1);
    assert.equal((await mails()).filter((m) => m.recipient === at('race')).length, 1);
  });

  it("should count an address's invitations, five per 15 minutes, and refuse the sixth with 429 and nothing written", async () => {
    const { app, db, admin, post, at, mails } = await setup();
    const hits = async () =>
      (
        await db
          .selectFrom('rate_limits')
          .select('hits')
          .where('key', '=', `invitation ${at('limit')}`)
          .executeTakeFirst()
      )?.hits;
    assert.equal((await post({ email: at('limit'), first_name: 'Lina' })).json().message, 'Invitation envoyée');
    assert.equal(await hits(), 1);
    const account = await db.selectFrom('auth.users').select('id').where('email', '=', at('limit')).executeTakeFirstOrThrow();
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
    const again = await post({ email: at('limit') });
    assert.equal(again.statusCode, 429);
    assert.equal(again.json().error, 'rate_limited');
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', at('limit')).execute()).length, 0);
    assert.equal(await hits(), 5);
    assert.equal((await mails()).filter((m) => m.recipient === at('limit')).length, 5);
    // Another address is not held back.
    assert.equal((await post({ email: at('other') })).json().message, 'Invitation envoyée');
  });

  it('should answer 404 not_found, writing nothing, when the organization is deleted before the invitation is written', async () => {
    const { db, config, admin, at, tag, mails } = await setup();
    // The gate read the organization, which is deleted before the invitation's statement runs.
    const gone = await createOrg(db, 'Compagnie dissoute', `GONE-${tag}`);
    await db.deleteFrom('organizations').where('id', '=', gone).execute();
    const caller = { userId: admin.userId, email: at('admin'), firstName: 'Alice', isStaff: false, staffLevel: null, sessionId: 'test' };
    const ctx = { db, config, scope: { caller, orgId: gone, role: 'ADMIN' as const, orgName: 'Compagnie dissoute' } };
    await assert.rejects(addMember(ctx, { email: at('late'), role: 'AGENT', firstName: 'Léa' }), { status: 404, code: 'not_found' });
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', at('late')).execute()).length, 0);
    assert.equal((await mails()).length, 0);
  });

  it('should answer 413 to a body over 64 KiB', async () => {
    const { post, at } = await setup();
    const res = await post({ email: at('x'), first_name: 'a'.repeat(70 * 1024) });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error, 'payload_too_large');
  });

  it('should record the audit trail of an invitation and a role change', async () => {
    const { app, admin, post, at } = await setup();
    await post({ email: at('new'), role: 'AGENT' });
    await post({ email: at('new'), role: 'COMPTA' });
    const res = await app.inject({ method: 'GET', url: '/api/access/events', headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 200);
    const items = res.json().items.map((e: Record<string, unknown>) => [e.action, e.actor_email, e.target_email, e.old_role, e.new_role]);
    assert.deepEqual(items, [
      ['role_changed', at('admin'), at('new'), 'AGENT', 'COMPTA'],
      ['invited', at('admin'), at('new'), null, 'AGENT'],
    ]);
    assert.equal(res.json().next_cursor, null);
  });
});
