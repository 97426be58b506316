/**
 * Runs the service: validates the configuration, migrates, serves, and shuts down
 * gracefully on SIGTERM/SIGINT. The only module that sets up logging and listens.
 *
 * Shutdown order (Fastify runs `onClose` hooks last-registered first): stop accepting
 * HTTP requests and let those in flight finish; stop the control socket and let running
 * commands finish; stop the mail worker after its current e-mail; close the database;
 * release the data-directory lock.
 */
import path from 'node:path';
import Fastify, { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import closeWithGrace from 'close-with-grace';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ConfigError, loadConfig, redactUrl, type Config } from './config.ts';
import { operatorSettings, operatorWarning } from './operator/operator.service.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { isDatabaseUnavailable } from './db/errors.ts';
import { acquireDataDirLock, DataDirBusyError, type DataDirLock } from './db/data-dir-lock.ts';
import { keepNewFilesPrivate } from './db/private-files.ts';
import controlSocket, { controlSocketPath } from './cli/control-socket.ts';
import { redactFileSignature } from './files/signed-url.ts';
import { LOG_REDACTION } from './http/log-redaction.ts';
import app, { appOptions } from './app.ts';

/** A request as Fastify logs it (method, url, host, address), a signed file URL's `sig` redacted. */
function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactFileSignature(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * One log line per request, written when it is answered: address, status and milliseconds
 * together. Fastify writes two (one on arrival, one on answer), each a synchronous write to
 * stdout on the event loop's thread. Errors, 404s and refusals keep Fastify's own lines.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Requests in flight, running commands and the current e-mail get this long at shutdown. */
const SHUTDOWN_GRACE_MS = 10_000;

/** A start-up failure with a one-line explanation (no stack trace). */
class StartupError extends Error {
  override name = 'StartupError';
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

function describeDatabaseFailure(error: unknown, config: Config): StartupError {
  const where = config.databaseUrl ? `the database at DATABASE_URL ${redactUrl(config.databaseUrl)}` : `the embedded database in ${config.dataDir}`;
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new StartupError(`cannot ${isDatabaseUnavailable(error) ? 'reach' : 'open or migrate'} ${where}: ${reason}`);
}

function describeListenFailure(error: unknown, config: Config): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return new StartupError(`${where} is already in use: set another PORT, or stop what listens there`);
  if (code === 'EACCES') return new StartupError(`not allowed to listen on ${where}: choose a PORT above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new StartupError(`HOST ${config.host} is not an address of this machine`);
  return error as Error;
}

async function start(config: Config): Promise<void> {
  keepNewFilesPrivate();
  const lock: DataDirLock | null = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  let database: DatabaseHandle | undefined;
  const release = once(async () => {
    await database?.close();
    lock?.release();
  });

  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pg') });
    await migrateToLatest(database.db);
  } catch (error) {
    await release().catch(() => {});
    throw describeDatabaseFailure(error, config);
  }

  const server = Fastify({
    ...appOptions(config),
    logger: { level: config.logLevel, redact: LOG_REDACTION, serializers: { req: loggedRequest } },
    logController: new OneLinePerRequest(),
    // Once shutdown starts, new requests get 503 while those in flight finish.
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Added first, so it runs last: after the app (mail worker) and the control socket.
  server.addHook('onClose', release);
  try {
    await server.register(app, { config, database });
    if (database.kind === 'pglite') await server.register(controlSocket, { socketPath: controlSocketPath(config.dataDir) });
  } catch (error) {
    await server.close().catch(() => {});
    await release().catch(() => {});
    throw error;
  }

  closeWithGrace(
    {
      delay: SHUTDOWN_GRACE_MS,
      logger: { error: (message: unknown) => server.log.error(message instanceof Error ? { err: message } : { message }, 'shutdown') },
    },
    async ({ signal, err }) => {
      if (err) server.log.error({ err }, 'shutting down after an error');
      else server.log.info({ signal }, 'shutting down');
      await server.close();
      server.log.info('stopped');
    },
  );

  try {
    await server.listen({ port: config.port, host: config.host });
  } catch (error) {
    await server.close().catch(() => {});
    throw describeListenFailure(error, config);
  }
  server.log.info({ publicUrl: config.publicUrl, database: database.kind }, 'payroll-access ready');
  const missing = operatorWarning(await operatorSettings(database.db, config));
  if (missing) {
    // A warning, not a refusal: what they disable answers 409 until they are set.
    server.log.warn({ missing: missing.variables }, missing.message);
  }
  // Once, in plain words, for the person who typed `npm start` (stdout keeps its JSON lines).
  process.stderr.write(`${readyLine(config)}\n`);
}

/** "payroll-access is ready: open http://127.0.0.1:3000/login in your browser". */
function readyLine(config: { publicUrl: string; host: string; port: number }): string {
  const listening = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const open = `${config.publicUrl}/login`;
  return new URL(config.publicUrl).port === String(config.port) || config.publicUrl === listening
    ? `payroll-access is ready: open ${open} in your browser`
    : `payroll-access is ready, listening on ${listening}: open ${open} in your browser (PUBLIC_URL)`;
}

try {
  await start(loadConfig());
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirBusyError || error instanceof StartupError) {
    process.stderr.write(`payroll-access: ${error.message}\n`, () => process.exit(1));
  } else {
    throw error;
  }
}
