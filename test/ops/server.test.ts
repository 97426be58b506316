/**
 * The real server, compiled and run as `npm start` runs it, as a child process on the embedded database: the command line while it
 * runs (control socket), a second server on the same DATA_DIR, logs without secrets, and a
 * graceful stop that gives the files back.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildServer, childEnv, cliJson, ROOT, runCli, secret, startFlags, startServer, type ServerProcess } from '../cli/processes.ts';

const PUBLIC_URL = 'https://paie.example.com';
const tokenOf = (url: string) => decodeURIComponent(/#token=([^&]+)/.exec(url)![1]!);

describe('the server on the embedded database', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: ServerProcess;

  before(async () => {
    // Short on purpose: the control socket's path must fit in a Unix socket address.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-srv-'));
    // Open to everyone, as a directory made by hand might be: the server must close it.
    fs.chmodSync(dataDir, 0o755);
    env = { DATA_DIR: dataDir, PUBLIC_URL };
    buildServer();
    server = await startServer(env, 180_000, { compiled: true });
  });
  after(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function signIn(url: string): Promise<string> {
    const res = await fetch(`${server.url}/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: tokenOf(url) }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('session='));
    assert.ok(cookie, 'a session cookie');
    return cookie.split(';')[0]!;
  }

  async function me(cookie: string) {
    const res = await fetch(`${server.url}/api/me`, { headers: { cookie } });
    assert.equal(res.status, 200);
    return (await res.json()) as { email: string; staff_level: string | null; memberships: Array<{ org_name: string; role: string }> };
  }

  it('should hold DATA_DIR with a lock and a private control socket', () => {
    assert.equal(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8').trim(), String(server.child.pid));
    const socket = fs.statSync(path.join(dataDir, 'control.sock'));
    assert.ok(socket.isSocket());
    assert.equal(socket.mode & 0o777, 0o600);
  });

  it('should answer /healthz and /readyz', async () => {
    const live = await fetch(`${server.url}/healthz`);
    assert.equal(live.status, 200);
    assert.deepEqual(await live.json(), { status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    assert.equal(ready.status, 200);
  });

  it('should serve the sign-in page with its script and stylesheet from the compiled server', async () => {
    const page = await fetch(`${server.url}/login`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<script type="module" src="\/assets\/login\.js"><\/script>/);
    const script = await fetch(`${server.url}/assets/login.js`);
    assert.equal(script.status, 200);
    assert.equal(await script.text(), fs.readFileSync(path.join(ROOT, 'src', 'pages', 'assets', 'login.js'), 'utf8'));
    const style = await fetch(`${server.url}/assets/style.css`);
    assert.equal(style.status, 200);
    assert.match(style.headers.get('content-type')!, /^text\/css/);
  });

  it('should render PDFs from the compiled code, in its rendering processes, without tsx, under the node flags of npm start', () => {
    // npm start's flags (the heap cap, the main thread's young generation, the memory reducer
    // off, one V8 helper thread) are the server's; a rendering process has its own.
    assert.deepEqual(startFlags(), ['--max-old-space-size=1024', '--max-semi-space-size=8', '--no-memory-reducer', '--v8-pool-size=1']);
    const script = `import { closeRenderers, renderPdf } from './dist/pdf/render.js';
      const pdf = await renderPdf({ content: ['Théâtre'] });
      await closeRenderers();
      process.stdout.write(pdf.subarray(0, 5).toString());`;
    const output = execFileSync(process.execPath, [...startFlags(), '--input-type=module', '-e', script], { cwd: ROOT, env: childEnv({}) });
    assert.equal(output.toString(), '%PDF-');
  });

  it('should refuse a second server on the same DATA_DIR with one line', async () => {
    await assert.rejects(startServer(env), (error: Error) => {
      assert.match(error.message, /exited with 1/);
      assert.match(error.message, /payroll-access: the embedded database in .* is in use by process \d+/);
      assert.doesNotMatch(error.message, /\n\s+at /);
      return true;
    });
  });

  it('should run commands inside the running server: staff create, login-link, then sign in as SUPER_STAFF', async () => {
    const { user_id } = await cliJson<{ user_id: string }>(['staff', 'create', '--email', 'a@example.com', '--super'], env);
    const { url } = await cliJson<{ url: string }>(['login-link', '--email', 'a@example.com'], env);
    assert.ok(url.startsWith(`${PUBLIC_URL}/activate#token=`));
    const account = await me(await signIn(url));
    assert.equal(account.email, 'a@example.com');
    assert.equal(account.staff_level, 'SUPER_STAFF');
    assert.ok(user_id);
  });

  it('should let the server see an organization created by the command line while it runs', async () => {
    const { id } = await cliJson<{ id: string }>(['org', 'create', '--name', 'Théâtre du Soleil', '--key', 'TDS001'], env);
    const added = await cliJson<{ user_id: string; created: boolean }>(
      ['member', 'add', '--org', id, '--email', 'direction@example.com', '--role', 'SUPER_ADMIN'],
      env,
    );
    assert.equal(added.created, true);
    const { url } = await cliJson<{ url: string }>(['login-link', '--email', 'direction@example.com'], env);
    const account = await me(await signIn(url));
    assert.deepEqual(
      account.memberships.map((m) => [m.org_name, m.role]),
      [['Théâtre du Soleil', 'SUPER_ADMIN']],
    );
  });

  it('should pass refusals back as one line and exit 1', async () => {
    const orgs = await cliJson<{ id: string }>(['org', 'create', '--name', 'Compagnie'], env);
    await cliJson(['member', 'add', '--org', orgs.id, '--email', 'one@example.com', '--role', 'SUPER_ADMIN'], env);
    const refused = await runCli(['member', 'add', '--org', orgs.id, '--email', 'two@example.com', '--role', 'SUPER_ADMIN'], env);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.equal(refused.stderr, 'payroll-access: organization "Compagnie" already has a SUPER_ADMIN (one@example.com): there is one per organization\n');
    const unknown = await runCli(['login-link', '--email', 'nobody@example.com'], env);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'payroll-access: no account with e-mail nobody@example.com\n');
  });

  it('should log each request in one line with its id and never a cookie, authorization or file signature', async () => {
    const cookieSecret = secret('cookie');
    const bearer = secret('bearer');
    const res = await fetch(`${server.url}/api/me`, {
      headers: { cookie: `session=${cookieSecret}`, authorization: `Bearer ${bearer}`, 'x-api-key': bearer },
    });
    assert.equal(res.status, 401);
    // A signed file URL's signature downloads the file without a session.
    const signature = secret('sig');
    const fileId = '00000000-0000-4000-8000-000000000000';
    await (await fetch(`${server.url}/files/${fileId}?exp=4102444800&sig=${signature}`)).arrayBuffer();
    // A sign-in: its Set-Cookie carries a real session token.
    const { url } = await cliJson<{ url: string }>(['login-link', '--email', 'a@example.com'], env);
    const signIns = () =>
      server
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"request completed"') && l.includes('"url":"/auth/session"')).length;
    const before = signIns();
    const session = await signIn(url);
    // The sign-in is the last request: once its line is in, every line before it is too.
    while (signIns() === before) await new Promise((resolve) => setTimeout(resolve, 10));
    const logs = server.stdout();
    for (const value of [cookieSecret, bearer, session.split('=')[1]!, tokenOf(url), signature]) {
      assert.ok(!logs.includes(value), `a secret leaked into the logs: ${value.slice(0, 12)}…`);
    }
    const lines = logs
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);
    assert.ok(
      lines.some((l) => l.req?.url === `/files/${fileId}?exp=4102444800&sig=[redacted]`),
      'the file request is logged, its signature redacted',
    );
    const ids = lines.filter((l) => l.req?.url === '/api/me').map((l) => l.reqId as unknown);
    assert.ok(ids.length > 0 && ids.every((id) => typeof id === 'string' && id !== ''), 'request logs carry a request id');
    // One line per request, written once it is answered: the address and the status together.
    const answered = lines.filter((l) => l.req?.url === '/api/me' && l.res?.statusCode === 401);
    assert.equal(answered.length, 1);
    assert.equal(answered[0]!.msg, 'request completed');
    assert.equal(answered[0]!.req.method, 'GET');
    assert.equal(typeof answered[0]!.responseTime, 'number');
    assert.equal(lines.filter((l) => l.reqId === answered[0]!.reqId).length, 1, 'no second line for the same request');
  });

  it("should keep DATA_DIR its owner's alone: the database, e-mails, lock and socket", async () => {
    // The activation e-mail of `staff create` (above) carries a live link: wait for its .eml.
    const mailDir = path.join(dataDir, 'mail');
    for (let i = 0; i < 100 && !(fs.existsSync(mailDir) && fs.readdirSync(mailDir).some((f) => f.endsWith('.eml'))); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const open: string[] = [];
    let files = 0;
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        const mode = fs.statSync(full).mode & 0o777;
        if (entry.isDirectory()) {
          if (mode !== 0o700) open.push(`${full} ${mode.toString(8)}`);
          walk(full);
        } else {
          files++;
          if (mode !== 0o600) open.push(`${full} ${mode.toString(8)}`);
        }
      }
    };
    assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700);
    walk(dataDir);
    assert.ok(
      fs.readdirSync(mailDir).some((f) => f.endsWith('.eml')),
      'an .eml file was written',
    );
    assert.ok(files > 900, `the database files were seen (${files})`);
    assert.deepEqual(open, [], `${open.length} of ${files} entries readable by others`);
  });

  it('should stop on SIGTERM, give the files back, and leave data the command line can read', async () => {
    const code = await server.stop('SIGTERM');
    assert.equal(code, 0, server.stderr());
    assert.ok(!fs.existsSync(path.join(dataDir, 'server.lock')), 'lock removed');
    assert.ok(!fs.existsSync(path.join(dataDir, 'control.sock')), 'control socket removed');
    assert.match(server.stdout(), /"msg":"stopped"/);
    // No server now: the command line opens the files itself.
    const { url } = await cliJson<{ url: string }>(['login-link', '--email', 'direction@example.com'], env);
    assert.ok(url.startsWith(`${PUBLIC_URL}/activate#token=`));
    assert.ok(!fs.existsSync(path.join(dataDir, 'server.lock')), 'the command line released the lock');
  });
});
