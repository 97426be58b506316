/**
 * Work a route does once its answer is on its way: the answer neither waits for it nor
 * depends on it, so its time tells nothing about what the work found (`POST /auth/magic-link`
 * answers the same way, in the same time, whether or not the account exists). A failure is
 * logged; shutdown waits for the work in progress before the database closes.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    afterAnswer: {
      /** Runs `task` after the current answer has been written. */
      run(task: () => Promise<void>): void;
      /** Resolves once every task started so far has ended (tests, shutdown). */
      settled(): Promise<void>;
    };
  }
}

export default fp(
  async function afterAnswerPlugin(fastify: FastifyInstance) {
    const pending = new Set<Promise<void>>();
    const settled = async () => {
      while (pending.size > 0) await Promise.all(pending);
    };
    fastify.decorate('afterAnswer', {
      run(task) {
        // setImmediate: after the handler's promise has settled and Fastify has written the answer.
        const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
          .then(task)
          .catch((err: unknown) => fastify.log.error({ err }, 'work after the answer failed'))
          .finally(() => pending.delete(running));
        pending.add(running);
      },
      settled,
    });
    fastify.addHook('preClose', settled);
  },
  { name: 'after-answer' },
);
