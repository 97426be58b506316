/**
 * The real command line and the real server as child processes, for the CLI and ops tests.
 * Children get a clean environment: the service variables of the developer's shell never
 * leak into a test.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const CONTRACT_VARIABLES = ['PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR', 'PUBLIC_URL', 'SMTP_URL', 'MAIL_FROM', 'SUPPORT_EMAIL', 'MAIL_TIMEZONE', 'LOG_LEVEL'];

export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...CONTRACT_VARIABLES, 'NODE_TEST_CONTEXT', 'TEST_DATABASE_URL']) delete base[name];
  return { ...base, ...env };
}

/** A new, empty directory under the system's temporary directory, removed after the test. */
export function tempDir(t: { after(fn: () => unknown): void }, prefix = 'pa-ops-'): string {
  // Short: the control socket path must fit in a Unix socket address.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A successful command's one JSON object; fails the test with the CLI's words otherwise. */
export async function cliJson<T = Record<string, unknown>>(args: string[], env: Record<string, string>): Promise<T> {
  const result = await runCli(args, env);
  if (result.code !== 0) throw new Error(`payroll-access ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  if (result.stderr !== '') throw new Error(`payroll-access ${args.join(' ')} wrote on stderr: ${result.stderr}`);
  const lines = result.stdout.trimEnd().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line of JSON, got: ${result.stdout}`);
  return JSON.parse(lines[0]!) as T;
}

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Everything written so far on stdout (the JSON logs) and stderr. */
  stdout(): string;
  stderr(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** The node flags `npm start` gives the server (package.json: `node <flags> dist/server.js`); the bench reads another checkout's. */
export function startFlags(root = ROOT): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const flags = /^node\s+(.*?)\s*dist\/server\.js$/.exec(scripts.start!)?.[1];
  if (flags === undefined) throw new Error(`npm start is not "node … dist/server.js": ${scripts.start}`);
  return flags.split(/\s+/).filter(Boolean);
}

/**
 * Starts the server on a free port (PORT=0) and resolves once it is ready: `src/server.ts`
 * through tsx, or with `compiled` as `npm start` runs it (its flags, `dist/server.js`, see `buildServer`).
 */
export function startServer(env: Record<string, string>, timeoutMs = 180_000, options: { compiled?: boolean } = {}): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const script = options.compiled ? [...startFlags(), 'dist/server.js'] : ['--import', 'tsx', 'src/server.ts'];
    const child = spawn(process.execPath, script, {
      cwd: ROOT,
      env: childEnv({ PORT: '0', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let url: string | null = null;
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server not ready after ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    const server: ServerProcess = {
      child,
      get url() {
        return url!;
      },
      stdout: () => stdout,
      stderr: () => stderr,
      stop(signal = 'SIGTERM') {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exited;
      },
      exited,
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      url ??= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? null;
      if (url && stdout.includes('payroll-access ready')) {
        clearTimeout(timer);
        resolve(server);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready: ${stderr || stdout}`));
    });
  });
}

/** Compiles the server as `npm start` does (its `prestart`), into `dist/`. */
export function buildServer(): void {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A value that cannot appear in logs by chance. */
export function secret(label: string): string {
  return `${label}-${crypto.randomBytes(12).toString('hex')}`;
}
