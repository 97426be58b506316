/**
 * Mail delivery inside the server: a worker that drains the outbox (CONTRACT 6).
 * PLACEHOLDER until the mail pipeline lands: exposes `fastify.mail.nudge()`.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export interface MailPluginOptions {
  /** Run the delivery worker in this process (default true). */
  mailWorker?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    mail: { nudge(): void };
  }
}

export default fp(
  async function mailPlugin(fastify: FastifyInstance, _options: MailPluginOptions) {
    fastify.decorate('mail', { nudge() {} });
  },
  { name: 'mail' },
);
