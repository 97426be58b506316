/**
 * The payroll inside the server: the payroll runs' job worker and the bulletins' job. A run is
 * a durable job (`payroll.run`, docs/jobs.md) run by a worker of its own, so that two runs
 * compute side by side without holding up the bulletins and documents of the main worker
 * (`fastify.jobs`), which nudges it too. It starts when the app is ready and stops before the
 * database closes, handing back a run in progress after its current chunk.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { JOB_KINDS } from '../jobs/kinds.ts';
import { JobWorker } from '../jobs/worker.ts';
import { runBulletinJob } from './bulletins.ts';
import { closePayrollPool } from './compute-pool.ts';
import { definePayrollRun } from './runner.ts';

export interface PayrollPluginOptions {
  /** Run the payroll runs' worker in this process (the command line does not). @default true */
  payrollWorker?: boolean;
  /** @default 1000 */
  payrollPollMs?: number;
  /** @default 30000 */
  payrollLeaseMs?: number;
  /**
   * Leave the payroll computers and the PDF renderers running when the app closes: a test file
   * builds an app per test and stops them once, at its end, instead of starting them per test.
   * @default false
   */
  keepProcessPools?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    payroll: { nudge(): void; worker: JobWorker };
  }
}

export default fp(
  async function payrollPlugin(fastify: FastifyInstance, options: PayrollPluginOptions) {
    const log = fastify.log.child({ module: 'payroll' });
    const worker = new JobWorker({
      db: fastify.db,
      log,
      concurrency: 2,
      ...(options.payrollPollMs !== undefined ? { pollMs: options.payrollPollMs } : {}),
      ...(options.payrollLeaseMs !== undefined ? { leaseMs: options.payrollLeaseMs } : {}),
    });
    definePayrollRun(worker, { ctx: { db: fastify.db, mail: fastify.mail }, log });
    fastify.jobs.attach(worker);
    fastify.decorate('payroll', { nudge: () => worker.nudge(), worker });
    const ctx = { db: fastify.db, mail: fastify.mail, jobs: fastify.jobs, files: fastify.files };
    fastify.jobs.define(JOB_KINDS.bulletin, (job) => runBulletinJob(ctx, job));
    if (options.payrollWorker ?? true) fastify.addHook('onReady', async () => worker.start());
    fastify.addHook('preClose', async () => {
      await worker.stop();
      if (!options.keepProcessPools) await closePayrollPool();
    });
  },
  { name: 'payroll', dependencies: ['jobs', 'files'] },
);
