import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freshDatabase } from '../helper.ts';
import { applyChange } from '../../src/audit/change.ts';
import { createOrganization } from '../../src/org/org.repository.ts';

const event = (orgId: string) => ({
  org_id: orgId,
  action: 'added' as const,
  actor_user_id: null,
  actor_email: 'cli',
  target_user_id: null,
  target_email: 'ana@example.com',
  old_role: null,
  new_role: 'AGENT',
});
const mail = { kind: 'activation', to: 'ana@example.com', subject: 'Activez votre compte', text: 'texte', html: '<p>html</p>' };

describe('applyChange', () => {
  it('should write the change, its event and its e-mail together, then nudge the worker once, after commit', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    const { db } = database;
    const nudges: number[] = [];
    const orgId = await applyChange({ db, mail: { nudge: () => void nudges.push(Date.now()) } }, async (change) => {
      const id = await createOrganization(change.trx, { name: 'Théâtre', structure_api: null });
      await change.audit(event(id));
      await change.mail(mail);
      await change.mail({ ...mail, to: 'bob@example.com' });
      assert.equal(nudges.length, 0, 'no nudge before commit');
      return id;
    });
    assert.equal(nudges.length, 1);
    assert.deepEqual(
      (await db.selectFrom('mail_outbox').select('recipient').orderBy('id').execute()).map((r) => r.recipient),
      ['ana@example.com', 'bob@example.com'],
    );
    const events = await db.selectFrom('access_events').select(['org_id', 'action', 'target_email']).execute();
    assert.deepEqual(events, [{ org_id: orgId, action: 'added', target_email: 'ana@example.com' }]);
  });

  it('should write nothing and nudge nobody when the change throws', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    const { db } = database;
    let nudged = false;
    await assert.rejects(
      applyChange({ db, mail: { nudge: () => (nudged = true) } }, async (change) => {
        const id = await createOrganization(change.trx, { name: 'Théâtre', structure_api: null });
        await change.audit(event(id));
        await change.mail(mail);
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(nudged, false);
    assert.equal((await db.selectFrom('organizations').select('id').execute()).length, 0);
    assert.equal((await db.selectFrom('access_events').select('id').execute()).length, 0);
    assert.equal((await db.selectFrom('mail_outbox').select('id').execute()).length, 0);
  });

  it('should not nudge the worker for a change that queued no e-mail', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    let nudged = false;
    await applyChange({ db: database.db, mail: { nudge: () => (nudged = true) } }, async (change) => {
      await change.audit(event(await createOrganization(change.trx, { name: 'Théâtre', structure_api: null })));
    });
    assert.equal(nudged, false);
  });
});
