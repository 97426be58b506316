import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { Type } from '@sinclair/typebox';
import { appPerSuite } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import sessionPlugin from '../../src/identity/session.plugin.ts';
import gatePlugin, { undeclaredGate } from '../../src/org/gate.plugin.ts';
import { orgScope, staffCaller } from '../../src/org/scope.ts';
import type { Gate } from '../../src/org/permissions.ts';

/** One route per gate, as a module route declares it, answering the scope the handler got. */
function gatedRoutes(fastify: FastifyInstance): void {
  for (const gate of ['contract', 'money', 'read'] as const) {
    fastify.post(`/api/test-gates/${gate}`, { config: { gate }, schema: { body: Type.Object({ name: Type.String({ minLength: 1 }) }) } }, async (request) => {
      const { orgId, role, caller } = orgScope(request);
      return { orgId, role, userId: caller.userId };
    });
  }
  fastify.get('/api/test-gates/staff', { config: { gate: 'staff' } }, async (request) => ({ userId: staffCaller(request).userId }));
}

// One app for the file: each test makes its own organization and people, at an address domain of
// its own.
const suite = appPerSuite({ routes: gatedRoutes });
let tests = 0;

async function setup() {
  const { app, database } = suite();
  const db = database.db;
  const domain = `t${++tests}.example.com`;
  const at = (local: string) => `${local}@${domain}`;
  const orgId = await createOrg(db, 'Théâtre');
  const call = (gate: Gate, cookie?: string, headers: Record<string, string> = {}, payload: object = { name: 'x' }) =>
    app.inject({
      method: gate === 'staff' ? 'GET' : 'POST',
      url: `/api/test-gates/${gate}`,
      headers: { ...(cookie ? { cookie } : {}), ...headers },
      ...(gate === 'staff' ? {} : { payload }),
    });
  return { app, db, orgId, call, at };
}

describe('organization gates', () => {
  it('should give each role the gates of its set, with its organization and role, and 403 Forbidden elsewhere', async () => {
    const { app, db, orgId, call, at } = await setup();
    const agent = await member(app, db, orgId, at('agent'), 'AGENT');
    const compta = await member(app, db, orgId, at('compta'), 'COMPTA');

    const allowed = await call('contract', agent.cookie);
    assert.equal(allowed.statusCode, 200);
    assert.deepEqual(allowed.json(), { orgId, role: 'AGENT', userId: agent.userId });
    const refused = await call('money', agent.cookie);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
    assert.match(String(refused.headers['content-type']), /^text\/plain/);

    assert.equal((await call('money', compta.cookie)).json().role, 'COMPTA');
    assert.equal((await call('contract', compta.cookie)).body, 'Forbidden');
    assert.equal((await call('read', compta.cookie)).statusCode, 200);
    assert.equal((await call('read', agent.cookie)).statusCode, 200);
  });

  it('should answer 401 Unauthorized without a session, before the body is validated', async () => {
    const { call } = await setup();
    const res = await call('contract', undefined, {}, { name: '' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, 'Unauthorized');
  });

  it('should refuse a role outside the set before the body is validated', async () => {
    const { app, db, orgId, call, at } = await setup();
    const agent = await member(app, db, orgId, at('agent'), 'AGENT');
    const res = await call('money', agent.cookie, {}, { name: '' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
    // Allowed, the same body is then refused by its schema.
    assert.equal((await call('contract', agent.cookie, {}, { name: '' })).json().error, 'invalid_request');
  });

  it('should answer 400 no_active_org to a member of no organization, and ignore its hints', async () => {
    const { app, db, orgId, call, at } = await setup();
    const loner = await signedIn(app, db, at('loner'));
    const res = await call('read', loner.cookie, { 'x-active-org-id': orgId });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'no_active_org', message: 'Aucune organisation active trouvée' });
  });

  it('should let staff through on the organization of their hints, else of their saved choice, else 400', async () => {
    const { app, db, orgId, call, at } = await setup();
    const otherId = await createOrg(db, 'Compagnie', 'CIE01');
    const staff = await signedIn(app, db, at('staff'), { staff: 'STAFF' });

    const none = await call('money', staff.cookie);
    assert.equal(none.statusCode, 400);
    assert.equal(none.json().error, 'no_active_org');

    await db.insertInto('staff_settings').values({ user_id: staff.userId, active_org_id: orgId }).execute();
    assert.deepEqual((await call('money', staff.cookie)).json(), { orgId, role: null, userId: staff.userId });
    // A hint wins over the saved choice.
    assert.equal((await call('contract', `${staff.cookie}; active_org_key=CIE01`)).json().orgId, otherId);
    assert.equal((await call('read', staff.cookie, { 'x-active-org-id': otherId })).json().orgId, otherId);
  });
});

describe('staff gate', () => {
  it('should answer 401 without a session, 403 Forbidden to a member, and let staff through', async () => {
    const { app, db, orgId, call, at } = await setup();
    const admin = await member(app, db, orgId, at('admin'), 'SUPER_ADMIN');
    const staff = await signedIn(app, db, at('staff'), { staff: 'STAFF' });
    assert.equal((await call('staff')).body, 'Unauthorized');
    const refused = await call('staff', admin.cookie);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
    assert.deepEqual((await call('staff', staff.cookie)).json(), { userId: staff.userId });
  });
});

describe('start-up check', () => {
  it('should name each guarded route that declares neither a gate nor public', () => {
    assert.equal(undeclaredGate({ url: '/api/contrats', config: {} }), '/api/contrats: declares neither config.gate nor config.public');
    assert.equal(undeclaredGate({ url: '/files/:id', config: undefined }), '/files/:id: declares neither config.gate nor config.public');
    assert.equal(undeclaredGate({ url: '/api/x', config: { gate: 'read', public: true } }), '/api/x: declares both a gate and public');
    assert.equal(undeclaredGate({ url: '/files/:id', config: { public: true } }), null);
    assert.equal(undeclaredGate({ url: '/api/factures', config: { gate: 'money' } }), null);
    // Such a route gets no caller from the session plugin: it must hand the gate what it read.
    assert.equal(
      undeclaredGate({ url: '/api/access', config: { gate: 'manageMembers', readsOwnSession: true } }),
      '/api/access: reads its own session without a scopeReader',
    );
    // Pages and sign-in are outside the guarded paths.
    assert.equal(undeclaredGate({ url: '/vos-acces', config: {} }), null);
  });

  it('should stop the server from starting when a route forgets its gate', async () => {
    const fastify = Fastify({ logger: false });
    await fastify.register(cookie);
    await fastify.register(sessionPlugin);
    await fastify.register(gatePlugin);
    const start = async () => {
      await fastify.register(
        async (instance) => {
          instance.get('/contrats', async () => ({}));
        },
        { prefix: '/api' },
      );
      await fastify.ready();
    };
    await assert.rejects(start(), /GET \/api\/contrats: declares neither config.gate nor config.public/);
    await fastify.close();
  });
});
