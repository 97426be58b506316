/**
 * The payroll runner inside the server (PAYROLL 7), as the mail worker is: it starts when the
 * app is ready and stops before the database closes. `fastify.payroll.nudge()` after a new run
 * makes it start at once rather than at the next poll.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { whenBulletinMissing } from '../payslips/payslips.service.ts';
import { ensureBulletin } from './bulletins.ts';
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
    // A published bulletin not yet rendered (the server stopped first) is rendered when asked for.
    whenBulletinMissing(ensureBulletin);
    if (options.payrollRunner ?? true) fastify.addHook('onReady', async () => runner.start());
    fastify.addHook('preClose', async () => {
      await runner.stop();
      await closePayrollPool();
    });
  },
  { name: 'payroll', dependencies: ['after-answer'] },
);
