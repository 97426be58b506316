/**
 * Start-up failures: one clear line on stderr naming the cause, exit status 1, no stack trace
 * */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { childEnv, ROOT, tempDir } from '../cli/processes.ts';

function runServer(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    // Generous: a server on PGlite migrates before it listens, which takes a minute on a busy machine.
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function assertOneLine(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line expected: ${result.stderr}`);
  assert.match(lines[0]!, /^payroll-access: /);
  assert.match(lines[0]!, pattern);
}

describe('server start-up with a configuration mistake', { concurrency: 3 }, () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'abc' }, /PORT must be a port number.*"abc"/],
    [{ PUBLIC_URL: 'notaurl' }, /PUBLIC_URL is not a valid URL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"/],
  ];
  for (const [env, pattern] of cases) {
    it(`should stop with one line naming the variable for ${JSON.stringify(env)}`, async (t) => {
      assertOneLine(await runServer({ DATA_DIR: tempDir(t), ...env }), pattern);
    });
  }
});

describe('server start-up with an unavailable resource', () => {
  it('should stop with one line when the port is taken, and give DATA_DIR back', async (t) => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    t.after(() => blocker.close());
    const port = (blocker.address() as net.AddressInfo).port;
    const dataDir = tempDir(t);
    const result = await runServer({ DATA_DIR: dataDir, PORT: String(port) });
    assertOneLine(result, new RegExp(`127\\.0\\.0\\.1:${port} is already in use: set another PORT`));
    const { existsSync } = await import('node:fs');
    assert.ok(!existsSync(`${dataDir}/server.lock`), 'the lock is released');
    assert.ok(!existsSync(`${dataDir}/control.sock`), 'the control socket is removed');
  });

  it('should stop with one line when PostgreSQL cannot be reached, without printing its password', async (t) => {
    const result = await runServer({ DATA_DIR: tempDir(t), DATABASE_URL: 'postgres://app:hunter2@127.0.0.1:1/nowhere' });
    assertOneLine(result, /cannot reach the database at DATABASE_URL postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/nowhere/);
    assert.ok(!result.stderr.includes('hunter2'));
  });
});
