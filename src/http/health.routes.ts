/** Liveness and readiness probes. */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { isMigrated } from '../db/migrate.ts';

const Status = Type.Object({ status: Type.String() });

export default async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  fastify.get('/readyz', { schema: { hide: true, response: { 200: Status, 503: Status } } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(fastify.db);
      if (!(await isMigrated(fastify.db))) return reply.code(503).send({ status: 'migrations pending' });
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'database unavailable' });
    }
  });
}
