/**
 * The control socket: how the command line reaches an embedded (PGlite) database that a
 * running server holds. Only one process may open PGlite's files, so while the server runs
 * the CLI sends its command here and the command runs inside the server, on its database.
 *
 * Protocol, one exchange per connection on the Unix socket `DATA_DIR/control.sock`:
 *   request  `{"command":"org create","args":{"name":"…","key":"…"}}` then a newline (or end)
 *   answer   `{"result":{…}}` or `{"error":"one line"}`, then the server closes the connection
 * `args` uses the command-line option names (`first-name`, `super`). The socket is created
 * with mode 0600: only the account running the server may use it.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/errors.ts';
import { CommandError, runCommand, type RawArgs } from './commands.ts';

export interface ControlRequest {
  command: string;
  args: RawArgs;
}

export type ControlReply = { result: unknown } | { error: string };

/** Larger requests are refused: the commands take a few short options. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** A client that connects and says nothing is dropped after this long. */
const IDLE_TIMEOUT_MS = 10_000;
/** `sun_path` holds 108 bytes on Linux, 104 on macOS, including the final NUL. */
export const MAX_SOCKET_PATH_BYTES = 103;

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'control.sock');
}

export function socketPathFits(socketPath: string): boolean {
  return Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH_BYTES;
}

/** The first line of an error, for a one-line answer. */
export function oneLineMessage(error: unknown): string {
  if (error instanceof AppError) return error.userMessage ?? error.code;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim() || 'unknown error';
}

function parseRequest(raw: string): ControlRequest {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new CommandError('the request is not JSON');
  }
  const request = value as Partial<ControlRequest> | null;
  if (
    !request ||
    typeof request !== 'object' ||
    typeof request.command !== 'string' ||
    (request.args !== undefined && (typeof request.args !== 'object' || request.args === null || Array.isArray(request.args)))
  ) {
    throw new CommandError('the request must be {"command": string, "args": object}');
  }
  return { command: request.command, args: request.args ?? {} };
}

export interface ControlSocketOptions {
  socketPath: string;
}

/**
 * Serves the control socket for the life of the Fastify instance. Registered by the server
 * on PGlite only, after the app: on close it stops taking commands and waits for those
 * running, before the mail worker stops and the database closes.
 */
export default fp(
  async function controlSocket(fastify: FastifyInstance, options: ControlSocketOptions) {
    const { socketPath } = options;
    const log = fastify.log.child({ component: 'control-socket' });
    if (!socketPathFits(socketPath)) {
      log.warn({ socketPath }, 'DATA_DIR is too long a path for a Unix socket: the command line cannot reach this server');
      return;
    }
    const running = new Set<Promise<void>>();

    async function handle(raw: string): Promise<ControlReply> {
      let command = '?';
      try {
        const request = parseRequest(raw);
        command = request.command;
        const result = await runCommand({ db: fastify.db, config: fastify.config }, request.command, request.args);
        fastify.mail.nudge(); // a command may have queued an e-mail
        log.info({ command }, 'command done');
        return { result };
      } catch (error) {
        if (error instanceof CommandError || error instanceof AppError) {
          log.info({ command, reason: oneLineMessage(error) }, 'command refused');
        } else {
          log.error({ command, err: error }, 'command failed');
        }
        return { error: oneLineMessage(error) };
      }
    }

    const server = net.createServer((socket) => {
      let buffer = '';
      let started = false;
      socket.setEncoding('utf8');
      socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
      socket.on('error', () => {}); // a client that went away: nothing to do
      const start = (raw: string) => {
        if (started) return;
        started = true;
        socket.setTimeout(0); // the command may take its time
        const task = handle(raw).then((reply) => {
          if (!socket.destroyed) socket.end(`${JSON.stringify(reply)}\n`);
        });
        running.add(task);
        void task.finally(() => running.delete(task));
      };
      socket.on('data', (chunk: string) => {
        if (started) return;
        buffer += chunk;
        if (Buffer.byteLength(buffer) > MAX_REQUEST_BYTES) {
          started = true;
          socket.end(`${JSON.stringify({ error: 'request too large' })}\n`);
          return;
        }
        const newline = buffer.indexOf('\n');
        if (newline !== -1) start(buffer.slice(0, newline));
      });
      socket.on('end', () => start(buffer));
    });

    // A socket left by a server that died: we hold the data-directory lock, so it is ours.
    fs.rmSync(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Created 0600 from the start: the umask applies when listen() binds, synchronously.
      const umask = process.umask(0o177);
      try {
        server.listen(socketPath, () => {
          server.off('error', reject);
          resolve();
        });
      } finally {
        process.umask(umask);
      }
    });
    fs.chmodSync(socketPath, 0o600);
    log.info({ socketPath }, 'control socket listening');

    fastify.addHook('onClose', async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle connections that never sent a request do not hold the shutdown.
        setTimeout(resolve, IDLE_TIMEOUT_MS).unref();
      });
      await Promise.allSettled([...running]);
      fs.rmSync(socketPath, { force: true });
    });
  },
  { name: 'control-socket', dependencies: ['payroll-access'] },
);

export type ControlOutcome = ControlReply | { unavailable: true };

/**
 * Sends one command to the server listening on `socketPath`. `unavailable` when nothing
 * listens there (no server, or one still starting); a reply otherwise.
 */
export function sendControlRequest(socketPath: string, request: ControlRequest, timeoutMs = 120_000): Promise<ControlOutcome> {
  return new Promise((resolve, reject) => {
    let connected = false;
    let answer = '';
    const socket = net.connect(socketPath);
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`the server did not answer within ${Math.round(timeoutMs / 1000)} s`));
    });
    socket.on('connect', () => {
      connected = true;
      socket.end(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && ['ENOENT', 'ECONNREFUSED', 'ENOTSOCK'].includes(error.code ?? '')) resolve({ unavailable: true });
      else reject(new Error(`the server's control socket failed: ${error.message}`));
    });
    socket.on('close', () => {
      if (!connected) return; // handled by 'error'
      try {
        const reply = JSON.parse(answer) as ControlReply;
        if (reply && typeof reply === 'object' && ('result' in reply || typeof (reply as { error?: unknown }).error === 'string')) {
          resolve(reply);
          return;
        }
      } catch {
        /* fall through */
      }
      reject(new Error('the server closed the control connection without an answer (is it shutting down?)'));
    });
  });
}
