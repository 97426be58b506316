/**
 * Mail delivery inside the server: a worker drains the outbox while the app is
 * up. Routes call `fastify.mail.nudge()` after a commit that queued mail, so it leaves at
 * once instead of at the next poll.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createMailTransport, type MailTransport } from './transport.ts';
import { MailWorker } from './worker.ts';

export interface MailPluginOptions {
  /**
   * Run the delivery worker in this process. The command line turns it off: e-mails it
   * queues are sent by the server.
   * @default true
   */
  mailWorker?: boolean;
  /**
   * How e-mails leave (tests inject one).
   * @default SMTP when `SMTP_URL` is set, else `.eml` files under `DATA_DIR/mail/`
   */
  mailTransport?: MailTransport;
  /**
   * Outbox polling interval.
   * @default 1000
   */
  mailPollMs?: number;
  /**
   * First retry delay, doubled at each failure up to 10 minutes.
   * @default 2000
   */
  mailRetryBaseMs?: number;
  /**
   * Attempts before an e-mail is marked failed.
   * @default 12
   */
  mailMaxAttempts?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    mail: {
      /** Delivers newly queued mail now rather than at the next poll. No-op without a worker. */
      nudge(): void;
      /** Runs one delivery pass now and resolves with the number of e-mails tried. */
      flush(): Promise<number>;
      /** How many delivery passes have ended (polls and flushes). */
      readonly passes: number;
    };
  }
}

export default fp(
  async function mailPlugin(fastify: FastifyInstance, options: MailPluginOptions) {
    const transport = options.mailTransport ?? createMailTransport(fastify.config);
    const worker = new MailWorker({
      db: fastify.db,
      transport,
      log: fastify.log.child({ module: 'mail' }),
      ...(options.mailPollMs !== undefined ? { pollMs: options.mailPollMs } : {}),
      ...(options.mailRetryBaseMs !== undefined ? { retryBaseMs: options.mailRetryBaseMs } : {}),
      ...(options.mailMaxAttempts !== undefined ? { maxAttempts: options.mailMaxAttempts } : {}),
    });

    fastify.decorate('mail', {
      nudge: () => worker.nudge(),
      flush: () => worker.flush(),
      get passes() {
        return worker.passes;
      },
    });

    if (options.mailWorker ?? true) {
      fastify.addHook('onReady', async () => {
        worker.start();
      });
    }
    // preClose, not onClose: the database is closed by an onClose hook that server.ts adds
    // after registering the app, and onClose hooks run last-registered first. preClose runs
    // before every onClose hook, so the e-mail in flight is recorded while the database is up.
    fastify.addHook('preClose', async () => {
      await worker.stop();
    });
    fastify.addHook('onClose', async () => {
      await worker.stop();
      transport.close();
    });
  },
  { name: 'mail' },
);
