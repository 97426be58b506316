/**
 * The job worker inside the server, as the mail worker is: features define their job kinds
 * when they register (`fastify.jobs.define`), the worker starts when the app is ready and stops
 * before the database closes. Changes that queue a job nudge it (`ctx.jobs`).
 *
 * A feature whose jobs need a concurrency of their own (the payroll runs) runs a second worker
 * for its kinds and attaches it here, so that the same nudge reaches it.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { JobWorker, type JobHandler, type JobKindOptions } from './worker.ts';

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
      define(kind: string, handler: JobHandler, options?: JobKindOptions): void;
      /** Looks for due jobs now, in every worker of the process. No-op for a worker not running. */
      nudge(): void;
      /** Another worker of this process (its own kinds), nudged with the first. */
      attach(worker: JobWorker): void;
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
    const workers = new Set([worker]);
    fastify.decorate('jobs', {
      define: (kind: string, handler: JobHandler, kindOptions?: JobKindOptions) => worker.define(kind, handler, kindOptions),
      nudge: () => {
        for (const each of workers) each.nudge();
      },
      attach: (other: JobWorker) => void workers.add(other),
      worker,
    });
    if (options.jobWorker ?? true) fastify.addHook('onReady', async () => worker.start());
    // preClose: the job in progress commits (or is handed back) while the database is up.
    fastify.addHook('preClose', async () => worker.stop());
  },
  { name: 'jobs' },
);
