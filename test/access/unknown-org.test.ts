import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { outbox, signedIn } from '../support/fixtures.ts';

const NOWHERE = '4b0f3a52-0000-4000-8000-000000000000';

describe('an organization id that names nothing', () => {
  it('should answer 404 not_found "Organisation introuvable" on POST /api/access and PUT /api/staff/active-org alike', async (t) => {
    const { app, database } = await build(t);
    const staff = await signedIn(app, database.db, 'staff@example.com', { staff: 'STAFF' });
    const expected = { error: 'not_found', message: 'Organisation introuvable' };

    const added = await app.inject({
      method: 'POST',
      url: '/api/access',
      headers: { cookie: `${staff.cookie}; active_org_id=${NOWHERE}` },
      payload: { email: 'ana@example.com' },
    });
    assert.equal(added.statusCode, 404);
    assert.deepEqual(added.json(), expected);
    const fromBody = await app.inject({
      method: 'POST',
      url: '/api/access',
      headers: { cookie: staff.cookie },
      payload: { email: 'ana@example.com', org_id: NOWHERE },
    });
    assert.equal(fromBody.statusCode, 404);
    assert.deepEqual(fromBody.json(), expected);

    const chosen = await app.inject({ method: 'PUT', url: '/api/staff/active-org', headers: { cookie: staff.cookie }, payload: { org_id: NOWHERE } });
    assert.equal(chosen.statusCode, 404);
    assert.deepEqual(chosen.json(), expected);
    assert.equal((await outbox(database.db)).length, 0);
  });
});
