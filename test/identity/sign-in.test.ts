import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, sessionCookieOf } from '../helper.ts';
import { ensureAccount, issueOneTimeToken } from '../../src/identity/identity.service.ts';

describe('POST /auth/session', () => {
  it('should exchange a sign-in token for a session that /api/me recognises', async (t) => {
    const { app, database } = await build(t);
    const { account } = await ensureAccount(database.db, 'ana@example.com', { first_name: 'Ana' });
    const token = await issueOneTimeToken(database.db, account.id, 'magiclink');

    const signIn = await app.inject({ method: 'POST', url: '/auth/session', payload: { token } });
    assert.equal(signIn.statusCode, 200);
    assert.deepEqual(signIn.json(), { ok: true, redirect: '/vos-acces' });
    const setCookie = String(signIn.headers['set-cookie']);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    assert.match(setCookie, /Path=\//);
    assert.match(setCookie, /Secure/); // PUBLIC_URL is https in tests

    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookieOf(signIn) } });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().email, 'ana@example.com');
    assert.equal(me.json().first_name, 'Ana');
    assert.equal(me.json().is_staff, false);
  });

  it('should refuse a token the second time with 401 invalid_token', async (t) => {
    const { app, database } = await build(t);
    const { account } = await ensureAccount(database.db, 'bob@example.com', {});
    const token = await issueOneTimeToken(database.db, account.id, 'magiclink');
    assert.equal((await app.inject({ method: 'POST', url: '/auth/session', payload: { token } })).statusCode, 200);
    const again = await app.inject({ method: 'POST', url: '/auth/session', payload: { token } });
    assert.equal(again.statusCode, 401);
    assert.equal(again.json().error, 'invalid_token');
  });
});

describe('GET /api/me', () => {
  it('should answer 401 plain Unauthorized without a session', async (t) => {
    const { app } = await build(t);
    const res = await app.inject({ method: 'GET', url: '/api/me' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, 'Unauthorized');
    assert.match(String(res.headers['content-type']), /^text\/plain/);
  });
});
