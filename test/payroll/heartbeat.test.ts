/**
 * A run on a saturated machine: its computing processes (at the lowest priority) make no
 * progress for far longer than the lease, yet the instance is alive; the heartbeat keeps the
 * run its own, so it is neither claimed again nor failed "interrompu". The compute is a fake the
 * test holds, and the test waits on heartbeats, not on time.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { setup, OPERATOR_ENV, submittedTechnicianContract } from '../payslips/support.ts';
import { definePayrollRun } from '../../src/payroll/runner.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { claimJob } from '../../src/jobs/jobs.repository.ts';
import { JOB_KINDS } from '../../src/jobs/kinds.ts';
import { computeInPool } from '../../src/payroll/compute-pool.ts';
import type { Situation } from '../../src/payroll/situation.ts';

const PERIOD = '2027-03';

describe('a payroll run whose computation is starved', () => {
  it('should keep its lease while the instance lives, however long a chunk takes, and finish', async (t) => {
    const ctx = await setup(t, OPERATOR_ENV);
    await submittedTechnicianContract(ctx);

    const LEASE_MS = 300;
    let release!: () => void;
    const saturated = new Promise<void>((resolve) => (release = resolve));
    let chunkStarted!: () => void;
    const computing = new Promise<void>((resolve) => (chunkStarted = resolve));
    const renewals: number[] = [];
    let enough!: () => void;
    const manyRenewals = new Promise<void>((resolve) => (enough = resolve));
    const failures: unknown[] = [];
    const log = { info() {}, warn: (obj: object) => failures.push(obj), error: (obj: object) => failures.push(obj) };
    const runner = new JobWorker({
      db: ctx.app.db,
      log,
      leaseMs: LEASE_MS,
      heartbeatMs: 50,
      pollMs: 20,
      onHeartbeat: (ids) => {
        if (ids.length === 0) return;
        renewals.push(Date.now());
        if (renewals.length === 20) enough();
      },
    });
    definePayrollRun(runner, {
      ctx: { db: ctx.app.db },
      log,
      // The real computation, held back as a machine whose cores are taken would hold it.
      compute: async (situations: Situation[]) => {
        chunkStarted();
        await saturated;
        return computeInPool(situations);
      },
    });
    t.after(() => runner.stop());
    const started = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
    const runId = started.json().run_id as string;
    const claimedAt = Date.now();
    runner.start();
    await computing;
    await manyRenewals;
    assert.ok(renewals.at(-1)! - claimedAt > 3 * LEASE_MS, `the chunk has lasted ${renewals.at(-1)! - claimedAt} ms, several leases`);
    // Another instance looking for work finds none: the run is still this one's.
    assert.equal(await claimJob(ctx.app.db, [JOB_KINDS.payrollRun], 'other-instance', LEASE_MS), undefined);
    const held = await sql<{ status: string; attempts: number; leased: boolean; owner: string }>`
      select status, attempts, lease_until > now() as leased, lease_owner as owner from public.jobs where subject_id = ${runId}`.execute(ctx.app.db);
    assert.deepEqual(held.rows[0], { status: 'running', attempts: 1, leased: true, owner: runner.owner });
    assert.equal((await ctx.app.db.selectFrom('payroll_runs').select('status').where('id', '=', runId).executeTakeFirstOrThrow()).status, 'en_cours');
    release();
    for (;;) {
      const run = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${runId}`)).json();
      if (run.status !== 'en_cours') {
        assert.equal(run.status, 'termine', JSON.stringify(run));
        assert.equal(run.payslips.length, 1);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(await ctx.app.db.selectFrom('jobs').select(['status', 'attempts']).where('subject_id', '=', runId).executeTakeFirstOrThrow(), {
      status: 'done',
      attempts: 1,
    });
  });
});
