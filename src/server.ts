/**
 * Runs the service: validates the configuration, migrates, serves, and shuts down
 * gracefully on SIGTERM/SIGINT. The only module that sets up logging and listens.
 */
import Fastify from 'fastify';
import closeWithGrace from 'close-with-grace';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { acquireDataDirLock, DataDirBusyError } from './db/data-dir-lock.ts';
import app, { appOptions } from './app.ts';
import path from 'node:path';

/** What never reaches the logs: session cookies, tokens, authorization headers. */
export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
];

async function main(config: Config): Promise<void> {
  const lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pg') });
  await migrateToLatest(database.db);

  const server = Fastify({
    ...appOptions(),
    logger: { level: 'info', redact: { paths: LOG_REDACT, censor: '[redacted]' } },
    // Requests in flight get this long to finish once shutdown starts.
    return503OnClosing: true,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await server.register(app, { config, database });
  server.addHook('onClose', async () => {
    await database.close();
    lock?.release();
  });

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) server.log.error({ err }, 'shutting down after an error');
    else server.log.info({ signal }, 'shutting down');
    await server.close();
  });

  await server.listen({ port: config.port, host: config.host });
  server.log.info({ publicUrl: config.publicUrl, database: database.kind }, 'payroll-access ready');
}

try {
  await main(loadConfig());
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirBusyError) {
    console.error(`payroll-access: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
