/** What every Fastify limit server does once its route is declared: listen, say so, stop cleanly. */
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';

export async function serveLimit(app: FastifyInstance, pool: pg.Pool, name: string): Promise<void> {
  await app.listen({ port: Number(process.env.PORT ?? 3100), host: '127.0.0.1' });
  process.stdout.write(`limit server (${name}) ready\n`);
  const stop = async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
