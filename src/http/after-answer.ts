/**
 * Work a route does once its answer is on its way: the answer neither waits for it nor
 * depends on it, so its time tells nothing about what the work found (`POST /auth/magic-link`
 * answers the same way, in the same time, whether or not the account exists). A failure is
 * logged; shutdown waits for the work in progress before the database closes.
 *
 * Shutdown also waits for the handlers still running. Fastify's close waits for open
 * connections, so a handler whose client has left (a PDF still rendering, say) would otherwise
 * meet a closed database and log an error for nothing.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    afterAnswer: {
      /** Runs `task` after the current answer has been written. */
      run(task: () => Promise<void>): void;
      /** Resolves once every task started so far, and every handler running, has ended (tests, shutdown). */
      settled(): Promise<void>;
    };
  }
  interface FastifyRequest {
    /** Counted among the handlers running (see `afterAnswer.settled`). */
    handling: boolean;
  }
}

/**
 * How long shutdown waits for the handlers still running before it closes the database anyway:
 * under the server's grace (10 s), so that a handler that never answers cannot stall a stop.
 */
const HANDLERS_GRACE_MS = 5_000;

export default fp(
  async function afterAnswerPlugin(fastify: FastifyInstance) {
    const pending = new Set<Promise<void>>();
    // A counter, not a promise a request: this runs on every request.
    let handling = 0;
    let waiters: Array<() => void> = [];
    const handlersSettled = () => (handling === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)));
    const settled = async () => {
      while (handling > 0 || pending.size > 0) await Promise.all([handlersSettled(), ...pending]);
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

    fastify.decorateRequest('handling', false);
    const handled = (request: FastifyRequest) => {
      if (!request.handling) return;
      request.handling = false;
      handling -= 1;
      if (handling > 0) return;
      const waiting = waiters;
      waiters = [];
      for (const resolve of waiting) resolve();
    };
    fastify.addHook('onRequest', (request, _reply, done) => {
      request.handling = true;
      handling += 1;
      done();
    });
    // onSend runs once the handler answers, even to a client that has left (onResponse then
    // never runs); onResponse covers an answer written without it (Fastify's last-resort error).
    fastify.addHook('onSend', (request, _reply, payload, done) => {
      handled(request);
      done(null, payload);
    });
    fastify.addHook('onResponse', (request, _reply, done) => {
      handled(request);
      done();
    });

    fastify.addHook('preClose', async () => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, HANDLERS_GRACE_MS, 'late')));
      const outcome = await Promise.race([settled(), late]).finally(() => clearTimeout(timer));
      if (outcome === 'late') fastify.log.warn({ handlers: handling, tasks: pending.size }, `still running after ${HANDLERS_GRACE_MS} ms: closing anyway`);
    });
  },
  { name: 'after-answer' },
);
