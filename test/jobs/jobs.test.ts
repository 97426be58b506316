/**
 * The durable job path (src/jobs): a job queued in its change's transaction, claimed once by
 * one of several workers, retried with backoff, failed with a reason staff read and retry,
 * taken up again after its worker died, and kept while its heartbeat beats however long the
 * work takes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, sql } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { applyChange } from '../../src/audit/change.ts';
import { AppError } from '../../src/http/errors.ts';
import { INTERNAL_FAILURE, JobHandedBack, JobWorker, type RunningJob } from '../../src/jobs/worker.ts';
import type { Database } from '../../src/db/database.ts';

const quiet = { info() {}, warn() {}, error() {} };

async function queue(db: Database, kind: string, subjectId: string, maxAttempts?: number) {
  await applyChange({ db }, (change) =>
    change.jobs([{ kind, payload: { n: subjectId }, subject: { type: 'test', id: subjectId }, ...(maxAttempts ? { maxAttempts } : {}) }]),
  );
  return (await db.selectFrom('jobs').select('id').where('subject_id', '=', subjectId).orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
}

const row = (db: Database, id: string) =>
  db
    .selectFrom('jobs')
    .select(['status', 'attempts', 'last_error', 'lease_owner', sql<boolean>`run_after > now()`.as('later')])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('the job worker', () => {
  it('should run a job queued by a committed change once, and none of a change rolled back', async (t) => {
    const { app } = await build(t);
    const db = app.db;
    const ran: string[] = [];
    const worker = new JobWorker({ db, log: quiet });
    worker.define('test.write', async (job) => {
      // The result and the job's end in one transaction.
      await applyChange({ db }, async (change) => {
        await change.event({
          org_id: null,
          action: 'test.done',
          subject_type: 'test',
          subject_id: String(job.payload.n),
          actor_user_id: null,
          actor_email: null,
        });
        await job.done(change.trx);
      });
      ran.push(String(job.payload.n));
    });
    const id = await queue(db, 'test.write', 'a');
    await assert.rejects(
      applyChange({ db }, async (change) => {
        await change.jobs([{ kind: 'test.write', payload: { n: 'b' }, subject: { type: 'test', id: 'b' } }]);
        throw new Error('the change fails');
      }),
    );
    // Queued twice while live: one job.
    await queue(db, 'test.write', 'a');
    assert.equal(await worker.runDue(), 1);
    assert.deepEqual(ran, ['a']);
    assert.deepEqual(await row(db, id), { status: 'done', attempts: 1, last_error: null, lease_owner: null, later: false });
    assert.equal((await db.selectFrom('jobs').select('id').execute()).length, 1);
    assert.equal((await db.selectFrom('module_events').select('id').where('action', '=', 'test.done').execute()).length, 1);
  });

  it('should retry a failure with a growing delay, then fail it with a reason that names no variable', async (t) => {
    const { app } = await build(t);
    const db = app.db;
    const worker = new JobWorker({ db, log: quiet, retryBaseMs: 60_000 });
    worker.define('test.broken', async () => {
      const settings = undefined as unknown as { operator: { name: string } };
      void settings.operator.name; // a TypeError naming `operator`
    });
    const id = await queue(db, 'test.broken', 'x', 3);
    assert.equal(await worker.runDue(), 1);
    assert.deepEqual(await row(db, id), { status: 'pending', attempts: 1, last_error: INTERNAL_FAILURE, lease_owner: null, later: true });
    const delay = async () =>
      (await sql<{ s: number }>`select extract(epoch from run_after - now())::float8 as s from public.jobs where id = ${id}`.execute(db)).rows[0]!.s;
    assert.ok((await delay()) > 50 && (await delay()) <= 60, 'first retry after the base delay');
    await sql`update public.jobs set run_after = now() where id = ${id}`.execute(db);
    assert.equal(await worker.runDue(), 1);
    assert.ok((await delay()) > 110 && (await delay()) <= 120, 'second retry after twice the base');
    await sql`update public.jobs set run_after = now() where id = ${id}`.execute(db);
    assert.equal(await worker.runDue(), 1);
    const failed = await row(db, id);
    assert.deepEqual({ ...failed, later: undefined }, { status: 'failed', attempts: 3, last_error: INTERNAL_FAILURE, lease_owner: null, later: undefined });
    assert.doesNotMatch(failed.last_error!, /operator|undefined|TypeError|settings/);
    assert.equal(await worker.runDue(), 0, 'a failed job is not run again by itself');
  });

  it("should fail at once, with the service's French reason, a job the service refuses", async (t) => {
    const { app } = await build(t);
    const worker = new JobWorker({ db: app.db, log: quiet });
    worker.define('test.refused', async () => {
      throw new AppError(
        409,
        'operator_identity_missing',
        "L'identité de l'opérateur est incomplète (SIRET) : la facture électronique ne peut pas être émise.",
      );
    });
    const id = await queue(app.db, 'test.refused', 'r');
    await worker.runDue();
    assert.deepEqual(await row(app.db, id), {
      status: 'failed',
      attempts: 1,
      lease_owner: null,
      later: false,
      last_error: "L'identité de l'opérateur est incomplète (SIRET) : la facture électronique ne peut pas être émise.",
    });
  });

  it('should take up a job whose worker died once its lease ran out, and give up with a reason after its attempts', async (t) => {
    const { app } = await build(t);
    const db = app.db;
    const done: string[] = [];
    const worker = new JobWorker({ db, log: quiet });
    worker.define('test.orphan', async (job) => void done.push(String(job.payload.n)));
    const orphan = await queue(db, 'test.orphan', 'orphan');
    const hopeless = await queue(db, 'test.orphan', 'hopeless', 2);
    const alive = await queue(db, 'test.orphan', 'alive');
    await sql`update public.jobs set status = 'running', lease_owner = 'dead-instance', attempts = 1, lease_until = now() - interval '1 second' where id = ${orphan}`.execute(
      db,
    );
    await sql`update public.jobs set status = 'running', lease_owner = 'dead-instance', attempts = 2, lease_until = now() - interval '1 second' where id = ${hopeless}`.execute(
      db,
    );
    // Another instance's job under a lease still running: not taken.
    await sql`update public.jobs set status = 'running', lease_owner = 'other-instance', attempts = 1, lease_until = now() + interval '1 minute' where id = ${alive}`.execute(
      db,
    );
    assert.equal(await worker.runDue(), 2);
    assert.deepEqual(done, ['orphan']);
    assert.equal((await row(db, orphan)).status, 'done');
    assert.deepEqual(await row(db, hopeless), {
      status: 'failed',
      attempts: 3,
      lease_owner: null,
      later: false,
      last_error: 'Le travail a été interrompu 2 fois (arrêt du serveur) sans aboutir : relancez-le.',
    });
    assert.equal((await row(db, alive)).lease_owner, 'other-instance');
  });

  it("should call a kind's failed hook in the transaction that fails the job, at the first error when it retries none", async (t) => {
    const { app } = await build(t);
    const db = app.db;
    const failures: Array<{ subject: string; reason: string; interrupted: number | null; status: string }> = [];
    const worker = new JobWorker({ db, log: quiet });
    worker.define(
      'test.once',
      async () => {
        throw new Error('disk full');
      },
      {
        retryErrors: false,
        failed: async (trx, failure) => {
          // Inside the transaction: the job reads failed already.
          const { status } = await trx.selectFrom('jobs').select('status').where('id', '=', failure.id).executeTakeFirstOrThrow();
          failures.push({ subject: String(failure.payload.n), reason: failure.reason, interrupted: failure.interrupted, status });
        },
      },
    );
    const broken = await queue(db, 'test.once', 'broken');
    const hopeless = await queue(db, 'test.once', 'hopeless', 2);
    await sql`update public.jobs set status = 'running', lease_owner = 'dead-instance', attempts = 2, lease_until = now() - interval '1 second' where id = ${hopeless}`.execute(
      db,
    );
    assert.equal(await worker.runDue(), 2);
    assert.deepEqual(await row(db, broken), { status: 'failed', attempts: 1, last_error: INTERNAL_FAILURE, lease_owner: null, later: false });
    assert.equal((await row(db, hopeless)).status, 'failed');
    assert.deepEqual(
      failures.sort((a, b) => a.subject.localeCompare(b.subject)),
      [
        { subject: 'broken', reason: INTERNAL_FAILURE, interrupted: null, status: 'failed' },
        { subject: 'hopeless', reason: 'Le travail a été interrompu 2 fois (arrêt du serveur) sans aboutir : relancez-le.', interrupted: 2, status: 'failed' },
      ],
    );
  });

  it('should let a stopping worker hand a job back, claimable at once and its attempt not counted, and claim only its kinds', async (t) => {
    const { app } = await build(t);
    const db = app.db;
    const other = await queue(db, 'test.other', 'other');
    const id = await queue(db, 'test.long', 'long');
    const worker = new JobWorker({ db, log: quiet, pollMs: 20 });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let stopping!: () => void;
    const asked = new Promise<void>((resolve) => (stopping = resolve));
    worker.define('test.long', async (job) => {
      started();
      await asked;
      assert.equal(job.stopping, true);
      throw new JobHandedBack();
    });
    const outcomes: string[] = [];
    worker.onOutcome((event) => outcomes.push(event.outcome));
    worker.start();
    await running;
    const stopped = worker.stop();
    stopping();
    await stopped;
    assert.deepEqual(outcomes, ['handed_back']);
    assert.deepEqual(await row(db, id), { status: 'pending', attempts: 0, last_error: null, lease_owner: null, later: false });
    // A kind this worker does not define is another worker's: untouched.
    assert.deepEqual(await row(db, other), { status: 'pending', attempts: 0, last_error: null, lease_owner: null, later: false });
  });

  it('should let two workers share the jobs, each run by one of them', async (t) => {
    const { app, database } = await build(t);
    const second = await build(t, { database: database as never });
    const runs = new Map<string, number>();
    const handler = async (job: RunningJob) => void runs.set(String(job.payload.n), (runs.get(String(job.payload.n)) ?? 0) + 1);
    const workers = [new JobWorker({ db: app.db, log: quiet }), new JobWorker({ db: second.app.db, log: quiet })];
    for (const worker of workers) worker.define('test.shared', handler);
    for (let i = 0; i < 40; i += 1) await queue(app.db, 'test.shared', `s${i}`);
    const counts = await Promise.all([workers[0]!.runDue(), workers[1]!.runDue(), workers[0]!.runDue(), workers[1]!.runDue()]);
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      40,
    );
    assert.equal(runs.size, 40);
    assert.ok([...runs.values()].every((n) => n === 1));
  });

  it('should keep a job whose work outlasts its lease many times while its heartbeat beats', async (t) => {
    const { app } = await build(t);
    const db = app.db;
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const beats: number[] = [];
    let enough!: () => void;
    const manyBeats = new Promise<void>((resolve) => (enough = resolve));
    const LEASE_MS = 200;
    const worker = new JobWorker({
      db,
      log: quiet,
      leaseMs: LEASE_MS,
      heartbeatMs: 40,
      onHeartbeat: (ids) => {
        if (ids.length === 0) return;
        beats.push(Date.now());
        if (beats.length === 25) enough();
      },
    });
    // CPU-bound work elsewhere (a starved child process): nothing reports progress.
    worker.define('test.slow', async () => {
      started();
      await blocked;
    });
    const id = await queue(db, 'test.slow', 'slow');
    const claimedAt = Date.now();
    const done = worker.runDue();
    await running;
    await manyBeats;
    // 25 beats: the work has lasted several leases, yet nobody else may claim it.
    assert.ok(beats.at(-1)! - claimedAt > 3 * LEASE_MS, `${beats.at(-1)! - claimedAt} ms`);
    const rival = new JobWorker({ db, log: quiet, leaseMs: LEASE_MS });
    rival.define('test.slow', async () => assert.fail('claimed twice'));
    assert.equal(await rival.runDue(), 0);
    const held = await db
      .selectFrom('jobs')
      .select(['status', 'attempts', sql<boolean>`lease_until > now()`.as('leased')])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(held, { status: 'running', attempts: 1, leased: true });
    release();
    assert.equal(await done, 1);
    assert.deepEqual(await row(db, id), { status: 'done', attempts: 1, last_error: null, lease_owner: null, later: false });
  });
});

describe('GET /api/staff/jobs, POST /api/staff/jobs/{id}/retry', () => {
  it('should show staff the failed jobs with their reason, and run one again when retried, audited', async (t) => {
    const { app } = await build(t);
    const db = app.db;
    const org = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
    const admin = await member(app, db, org, 'admin@soleil.example', 'ADMIN');
    let fixed = false;
    app.jobs.define('test.flaky', async () => {
      if (!fixed) throw new AppError(409, 'operator_identity_missing', "L'identité de l'opérateur est incomplète (SIRET).");
    });
    await applyChange({ db }, (change) => change.jobs([{ kind: 'test.flaky', payload: {}, orgId: org, subject: { type: 'invoice', id: 'F-1' } }]));
    await app.jobs.worker.runDue();
    const get = (who: { cookie: string }, url: string) => app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
    const listed = await get(staff, '/api/staff/jobs?status=failed');
    assert.equal(listed.statusCode, 200, listed.body);
    const [job, ...others] = listed.json().items;
    assert.deepEqual(others, []);
    assert.deepEqual(
      {
        kind: job.kind,
        org_id: job.org_id,
        org_name: job.org_name,
        subject_id: job.subject_id,
        status: job.status,
        attempts: job.attempts,
        last_error: job.last_error,
      },
      {
        kind: 'test.flaky',
        org_id: org,
        org_name: 'Théâtre du Soleil',
        subject_id: 'F-1',
        status: 'failed',
        attempts: 1,
        last_error: "L'identité de l'opérateur est incomplète (SIRET).",
      },
    );
    assert.deepEqual(
      (await get(staff, '/api/staff/jobs')).json().items.map((j: { id: string }) => j.id),
      [job.id],
    );
    assert.deepEqual((await get(staff, '/api/staff/jobs?status=done')).json().items, []);
    assert.equal((await get(staff, '/api/staff/jobs?status=nope')).json().error, 'invalid_status');
    assert.equal((await get(admin, '/api/staff/jobs')).statusCode, 403);

    const post = (who: { cookie: string }, id: string) => app.inject({ method: 'POST', url: `/api/staff/jobs/${id}/retry`, headers: { cookie: who.cookie } });
    assert.equal((await post(admin, job.id)).statusCode, 403);
    assert.equal((await post(staff, '999999')).statusCode, 404);
    assert.equal((await post(staff, 'nope')).statusCode, 404);
    fixed = true;
    const retried = await post(staff, job.id);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.deepEqual([retried.json().job.status, retried.json().job.attempts], ['pending', 0]);
    assert.deepEqual((await post(staff, job.id)).json().error, 'job_not_failed');
    assert.equal(await app.jobs.worker.runDue(), 1);
    assert.deepEqual((await get(staff, '/api/staff/jobs?status=failed')).json().items, []);
    assert.equal((await get(staff, '/api/staff/jobs?status=done')).json().items[0].id, job.id);
    const events = await db.selectFrom('module_events').select(['org_id', 'action', 'subject_id', 'actor_email']).where('action', '=', 'job.retried').execute();
    assert.deepEqual(events, [{ org_id: org, action: 'job.retried', subject_id: job.id, actor_email: 'staff@ops.example' }]);
  });
});
