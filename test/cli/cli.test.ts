/**
 * The command line as users run it: a child process per command, one JSON
 * object on stdout and exit 0, or one line on stderr and exit 1. On the embedded database
 * (a temporary DATA_DIR, no server: the CLI opens the files itself), or on a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import app, { appOptions } from '../../src/app.ts';
import { acquireDataDirLock } from '../../src/db/data-dir-lock.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { freshDatabase, sessionCookieOf, testConfig, usingPostgres } from '../helper.ts';
import { cliJson, runCli } from './processes.ts';
import { MIGRATIONS } from '../../src/db/migrate.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PUBLIC_URL = 'https://paie.example.com';

/** One line on stderr, nothing on stdout, exit 1; returns the line. */
function assertOneLineError(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): string {
  assert.equal(result.code, 1, `exit code; stderr: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line expected, got: ${result.stderr}`);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return lines[0]!;
}

describe('payroll-access with bad arguments', { concurrency: 3 }, () => {
  // None of these reaches a database: DATA_DIR points at nothing that exists.
  const env = { DATA_DIR: '/nonexistent/payroll-access', PUBLIC_URL };
  // The full list of refusals is checked in-process (commands.test.ts); these check that a
  // refusal reaches the user as one line on stderr and exit status 1.
  const cases: Array<[string, string[], RegExp]> = [
    ['no command', [], /no command given; usage: payroll-access </],
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    ['an unknown option', ['org', 'create', '--name', 'A', '--colour', 'red'], /"org create" has no option --colour/],
    ['an invalid e-mail', ['staff', 'create', '--email', 'not-an-address'], /--email "not-an-address" is not a valid e-mail address/],
    [
      'an invalid role',
      ['member', 'add', '--org', '00000000-0000-4000-8000-000000000000', '--email', 'a@example.com', '--role', 'boss'],
      /--role "BOSS" is not a role/,
    ],
  ];
  for (const [what, args, pattern] of cases) {
    it(`should refuse ${what} with one line and exit 1`, async () => {
      assertOneLineError(await runCli(args, env), pattern);
    });
  }

  it('should name the variable of a configuration mistake', async () => {
    assertOneLineError(await runCli(['migrate'], { PUBLIC_URL: 'notaurl' }), /PUBLIC_URL/);
  });
});

describe(`payroll-access on ${usingPostgres ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let env: Record<string, string>;
  let pg: (DatabaseHandle & { url: string | null }) | undefined;
  let dataDir: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-cli-'));
    if (usingPostgres) {
      pg = await freshDatabase();
      env = { DATABASE_URL: pg.url!, DATA_DIR: dataDir, PUBLIC_URL };
    } else {
      env = { DATA_DIR: dataDir, PUBLIC_URL };
    }
  });
  after(async () => {
    await pg?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  let orgId: string;

  it('should migrate and report the migrations applied', async () => {
    const { applied } = await cliJson<{ applied: string[] }>(['migrate'], env);
    assert.ok(Array.isArray(applied));
    // The embedded database starts empty; the PostgreSQL test database is already migrated.
    if (!usingPostgres) assert.deepEqual(applied, Object.keys(MIGRATIONS).sort());
    else assert.deepEqual(applied, []);
  });

  it('should create an organization and print its id', async () => {
    const result = await cliJson<{ id: string }>(['org', 'create', '--name', 'Théâtre du Phénix', '--key', 'PHX001'], env);
    assert.deepEqual(Object.keys(result), ['id']);
    assert.match(result.id, UUID);
    orgId = result.id;
  });

  it('should set the payroll inputs with org update and print the organization, or refuse a wrong one with one line', async () => {
    const result = await cliJson<Record<string, unknown>>(
      ['org', 'update', '--id', orgId, '--effectif', '8', '--convention', 'droit_commun', '--categorie-juridique', 'SARL', '--taux-at', '2.5'],
      env,
    );
    assert.deepEqual([result.id, result.effectif, result.convention, result.categorie_juridique, result.taux_at], [orgId, 8, 'droit_commun', 'SARL', '2.50']);
    assertOneLineError(await runCli(['org', 'update', '--id', orgId, '--taux-at', '150'], env), /^payroll-access: invalid_taux_at: /);
    const cleared = await cliJson<Record<string, unknown>>(['org', 'update', '--id', orgId, '--taux-at', '', '--effectif', '1'], env);
    assert.deepEqual([cleared.effectif, cleared.convention, cleared.taux_at], [1, 'droit_commun', null]);
    // The bulletin's mentions.
    const mentions = await cliJson<Record<string, unknown>>(['org', 'update', '--id', orgId, '--ape-code', '90.01Z', '--urssaf', 'Urssaf Île-de-France'], env);
    assert.deepEqual([mentions.ape_code, mentions.urssaf], ['9001Z', 'Urssaf Île-de-France']);
    assertOneLineError(await runCli(['org', 'update', '--id', orgId, '--ape-code', '900Z'], env), /^payroll-access: invalid_ape_code: /);
  });

  it('should add a member, creating the account, and print user_id and created', async () => {
    const result = await cliJson<{ user_id: string; created: boolean }>(
      ['member', 'add', '--org', orgId, '--email', 'Direction@Example.com', '--role', 'super_admin', '--first-name', 'Dora'],
      env,
    );
    assert.deepEqual(Object.keys(result).sort(), ['created', 'user_id']);
    assert.match(result.user_id, UUID);
    assert.equal(result.created, true);
  });

  it('should refuse a second SUPER_ADMIN in the organization with one line', async () => {
    const result = await runCli(['member', 'add', '--org', orgId, '--email', 'other@example.com', '--role', 'SUPER_ADMIN'], env);
    assertOneLineError(result, /already has a SUPER_ADMIN \(direction@example\.com\)/);
  });

  it('should create a SUPER_STAFF account and print its user_id', async () => {
    const result = await cliJson<{ user_id: string }>(['staff', 'create', '--email', 'a@example.com', '--super'], env);
    assert.deepEqual(Object.keys(result), ['user_id']);
    assert.match(result.user_id, UUID);
  });

  let staffLink: string;

  it('should print a one-time sign-in link on PUBLIC_URL', async () => {
    const { url } = await cliJson<{ url: string }>(['login-link', '--email', 'a@example.com'], env);
    assert.match(url, /^https:\/\/paie\.example\.com\/activate#token=[A-Za-z0-9_.%-]+&type=magiclink$/);
    staffLink = url;
  });

  it('should seed the demo data and print a summary with sign-in links', async () => {
    // Idempotence is checked in-process (commands.test.ts): a PGlite start costs seconds.
    const summary = await cliJson<{
      organizations: Array<{ id: string; key: string }>;
      staff: { email: string; login_url: string };
      org_admin: { login_url: string };
    }>(['seed-demo'], env);
    assert.ok(summary.organizations.length >= 2);
    assert.ok(summary.organizations.some((o) => o.key === 'TDS001'));
    assert.equal(summary.staff.email, 'staff@demo.local');
    assert.match(summary.staff.login_url, /^https:\/\/paie\.example\.com\/activate#token=.+&type=magiclink$/);
    assert.match(summary.org_admin.login_url, /^https:\/\/paie\.example\.com\/activate#token=.+&type=magiclink$/);
  });

  it('should give a link that signs the staff account in as SUPER_STAFF', async (t) => {
    // The acceptance path: staff create --super, login-link, POST /auth/session, GET /api/me.
    const lock = usingPostgres ? null : acquireDataDirLock(dataDir); // as a server would
    const database = pg ?? (await openDatabase({ databaseUrl: null, pgliteDir: path.join(dataDir, 'pg') }));
    const fastify = Fastify({ ...appOptions(), logger: false });
    await fastify.register(app, { config: testConfig({ PUBLIC_URL }), database, mailWorker: false });
    t.after(async () => {
      await fastify.close();
      if (!pg) await database.close();
      lock?.release();
    });
    const token = decodeURIComponent(/#token=([^&]+)/.exec(staffLink)![1]!);
    const signIn = await fastify.inject({ method: 'POST', url: '/auth/session', payload: { token } });
    assert.equal(signIn.statusCode, 200, signIn.body);
    const me = await fastify.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookieOf(signIn) } });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().email, 'a@example.com');
    assert.equal(me.json().is_staff, true);
    assert.equal(me.json().staff_level, 'SUPER_STAFF');
  });
});
