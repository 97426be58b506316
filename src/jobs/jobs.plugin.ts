/**
 * The job worker inside the server, as the mail worker is: features define their job kinds
 * when they register (`fastify.jobs.define`), the worker starts when the app is ready and stops
 * before the database closes. Changes that queue a job nudge it (`ctx.jobs`).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { JobWorker, type JobHandler } from './worker.ts';

export interface JobsPluginOptions {
  /** Run the job worker in this process (the command line does not). @default true */
  jobWorker?: boolean;
  /** @default 1000 */
  jobPollMs?: number;
  /** @default 30000 */
  jobLeaseMs?: number;
  /** @default 5000 */
  jobRetryBaseMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: {
      define(kind: string, handler: JobHandler): void;
      /** Looks for due jobs now. No-op without a worker running. */
      nudge(): void;
      worker: JobWorker;
    };
  }
}

export default fp(
  async function jobsPlugin(fastify: FastifyInstance, options: JobsPluginOptions) {
    const worker = new JobWorker({
      db: fastify.db,
      log: fastify.log.child({ module: 'jobs' }),
      ...(options.jobPollMs !== undefined ? { pollMs: options.jobPollMs } : {}),
      ...(options.jobLeaseMs !== undefined ? { leaseMs: options.jobLeaseMs } : {}),
      ...(options.jobRetryBaseMs !== undefined ? { retryBaseMs: options.jobRetryBaseMs } : {}),
    });
    fastify.decorate('jobs', { define: (kind: string, handler: JobHandler) => worker.define(kind, handler), nudge: () => worker.nudge(), worker });
    if (options.jobWorker ?? true) fastify.addHook('onReady', async () => worker.start());
    // preClose: the job in progress commits (or is handed back) while the database is up.
    fastify.addHook('preClose', async () => worker.stop());
  },
  { name: 'jobs' },
);
