/**
 * The command line: `payroll-access <command> [options]`. Prints one JSON object
 * on stdout and exits 0, or one line on stderr and exits 1.
 *
 * Where the command runs:
 * - `DATABASE_URL` set: on PostgreSQL, directly, whether or not a server runs.
 * - embedded database, no server: the CLI takes the data-directory lock (a server started
 *   meanwhile refuses to open the files), opens PGlite, migrates, runs, releases.
 * - embedded database held by a running server: the command is sent over the server's
 *   control socket and runs inside the server (`control-socket.ts`).
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, loadConfig, redactUrl, type Config } from '../config.ts';
import { acquireDataDirLock, DataDirBusyError, lockHolder, type DataDirLock } from '../db/data-dir-lock.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { keepNewFilesPrivate } from '../db/private-files.ts';
import { CommandError, prepareCommand, runCommand } from './commands.ts';
import { HELP, parseInvocation, type Invocation } from './args.ts';
import { controlSocketPath, oneLineMessage, sendControlRequest, socketPathFits } from './control-socket.ts';

/** How long to wait for a server that is starting, or for another command, to free the database. */
const BUSY_WAIT_MS = 30_000;

/** PGlite through the server's control socket, or directly under the data-directory lock. */
async function runOnEmbedded(config: Config, invocation: Invocation): Promise<object> {
  const socketPath = controlSocketPath(config.dataDir);
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    let lock: DataDirLock;
    try {
      lock = acquireDataDirLock(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
      const holder = lockHolder(config.dataDir);
      if (holder !== null && !socketPathFits(socketPath)) {
        throw new CommandError(
          `the server (process ${holder}) holds the embedded database in ${config.dataDir}, and that path is too long for its control socket: stop the server, or set DATABASE_URL`,
        );
      }
      const outcome = await sendControlRequest(socketPath, { command: invocation.name, args: invocation.args });
      if ('result' in outcome) return outcome.result as object;
      if ('error' in outcome) throw new CommandError(outcome.error);
      // Held by a server that is still starting, or by another command: wait for either.
      if (Date.now() > deadline) {
        throw new CommandError(
          `the embedded database in ${config.dataDir} is held by process ${holder ?? '?'}, which does not accept commands; wait for it to finish, or stop it`,
        );
      }
      await sleep(250);
      continue;
    }
    return runDirect(config, invocation, lock);
  }
}

async function runDirect(config: Config, invocation: Invocation, lock: DataDirLock | null): Promise<object> {
  // A command in progress finishes before the process goes: an interrupted write could
  // leave the embedded database for recovery, and the lock would be left behind.
  let interrupted = false;
  const onSignal = () => {
    if (!interrupted) process.stderr.write('payroll-access: finishing the command in progress…\n');
    interrupted = true;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let database: DatabaseHandle | undefined;
  try {
    // Loaded here: a command sent to a running server never needs the database drivers.
    const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../db/database.ts'), import('../db/migrate.ts')]);
    database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pg'), maxConnections: 2 });
    // The server migrates when it starts; a command on a new database does the same.
    if (invocation.name !== 'migrate') await migrateToLatest(database.db);
    return await runCommand({ db: database.db, config }, invocation.name, invocation.args);
  } finally {
    await database?.close().catch(() => {});
    lock?.release();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export async function execute(config: Config, invocation: Invocation): Promise<object> {
  // Arguments are checked before any database is opened or any server is asked.
  prepareCommand(invocation.name, invocation.args);
  return config.databaseUrl ? runDirect(config, invocation, null) : runOnEmbedded(config, invocation);
}

function describeFailure(error: unknown, config: Config | null): string {
  if (error instanceof CommandError || error instanceof ConfigError || error instanceof DataDirBusyError) return error.message;
  if (isDatabaseUnavailable(error)) {
    const where = config?.databaseUrl ? redactUrl(config.databaseUrl) : 'the embedded database';
    return `cannot reach ${where}: ${oneLineMessage(error)}`;
  }
  return oneLineMessage(error);
}

function finish(stream: NodeJS.WriteStream, text: string, code: number): void {
  // Exit once the output is flushed; an open handle (a pool, a timer) must not keep us.
  stream.write(text, () => process.exit(code));
}

async function main(argv: string[]): Promise<void> {
  let config: Config | null = null;
  try {
    const invocation = parseInvocation(argv);
    if (invocation === 'help') return finish(process.stdout, HELP, 0);
    config = loadConfig();
    keepNewFilesPrivate();
    const result = await execute(config, invocation);
    finish(process.stdout, `${JSON.stringify(result)}\n`, 0);
  } catch (error) {
    finish(process.stderr, `payroll-access: ${describeFailure(error, config)}\n`, 1);
  }
}

await main(process.argv.slice(2));
