/**
 * The payroll runner inside the server, as the mail worker is: it starts when the
 * app is ready and stops before the database closes. `fastify.payroll.nudge()` after a new run
 * makes it start at once rather than at the next poll. The bulletins' job is defined here.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { JOB_KINDS } from '../jobs/kinds.ts';
import { runBulletinJob } from './bulletins.ts';
import { closePayrollPool } from './compute-pool.ts';
import { PayrollRunner } from './runner.ts';

export interface PayrollPluginOptions {
  /** Run the runner in this process (the command line does not). @default true */
  payrollRunner?: boolean;
  /** @default 1000 */
  payrollPollMs?: number;
  /** @default 30000 */
  payrollLeaseMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    payroll: { nudge(): void; runner: PayrollRunner };
  }
}

export default fp(
  async function payrollPlugin(fastify: FastifyInstance, options: PayrollPluginOptions) {
    const runner = new PayrollRunner({
      ctx: { db: fastify.db, mail: fastify.mail },
      log: fastify.log.child({ module: 'payroll' }),
      ...(options.payrollPollMs !== undefined ? { pollMs: options.payrollPollMs } : {}),
      ...(options.payrollLeaseMs !== undefined ? { leaseMs: options.payrollLeaseMs } : {}),
    });
    fastify.decorate('payroll', { nudge: () => runner.nudge(), runner });
    const ctx = { db: fastify.db, mail: fastify.mail, jobs: fastify.jobs, files: fastify.files };
    fastify.jobs.define(JOB_KINDS.bulletin, (job) => runBulletinJob(ctx, job));
    if (options.payrollRunner ?? true) fastify.addHook('onReady', async () => runner.start());
    fastify.addHook('preClose', async () => {
      await runner.stop();
      await closePayrollPool();
    });
  },
  { name: 'payroll', dependencies: ['jobs', 'files'] },
);
