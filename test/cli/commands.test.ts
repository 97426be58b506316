/**
 * The commands' rules, run in-process on a fresh database (the child-process tests in
 * cli.test.ts check the process contract; these check what each command writes).
 */
import { MODEL_VERSION } from '../../src/payroll/model.ts';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseInvocation } from '../../src/cli/args.ts';
import { CommandError, DEMO_ORGANIZATIONS, DEMO_STAFF_EMAIL, runCommand, type CommandContext } from '../../src/cli/commands.ts';
import { AppError } from '../../src/http/errors.ts';
import { createStaffUser } from '../../src/staff/staff.service.ts';
import { todayInFrance } from '../../src/format/french.ts';
import { build, sessionCookieOf } from '../helper.ts';

// One database for the file (a fresh one costs seconds): each test uses its own names.
const cleanups: Array<() => unknown> = [];
let shared: Awaited<ReturnType<typeof open>>;

async function open() {
  const built = await build({ after: (fn) => cleanups.push(fn) });
  const ctx: CommandContext = { db: built.database.db, config: built.config };
  const run = (name: string, args: Record<string, unknown> = {}) => runCommand(ctx, name, args) as Promise<Record<string, any>>;
  return { ...built, ctx, run };
}

before(async () => {
  shared = await open();
});
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function setup(_t?: unknown) {
  return shared;
}

async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof CommandError, `a CommandError, got ${String(error)}`);
    assert.match(error.message, pattern);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
}

const tokenOf = (url: string) => decodeURIComponent(/#token=([^&]+)/.exec(url)![1]!);

describe('parseInvocation', () => {
  it('should read grouped commands and their options', () => {
    assert.deepEqual(parseInvocation(['member', 'add', '--org', 'X', '--email', 'a@b.fr', '--role', 'agent']), {
      name: 'member add',
      args: { org: 'X', email: 'a@b.fr', role: 'agent' },
    });
    assert.deepEqual(parseInvocation(['staff', 'create', '--email=a@b.fr', '--super']), {
      name: 'staff create',
      args: { email: 'a@b.fr', super: true },
    });
    assert.equal(parseInvocation(['--help']), 'help');
  });

  const refusals: Array<[string[], RegExp]> = [
    [[], /no command given/],
    [['org'], /"org" needs a sub-command/],
    [['org', 'delete'], /unknown command "org delete"/],
    [['org', 'create', '--name'], /option --name needs a value/],
    [['org', 'create', '--name', '--key', 'K'], /option --name needs a value/],
    [['org', 'create', '--name', 'A', 'B'], /unexpected argument B/],
    [['staff', 'create', '--email', 'a@b.fr', '--super=yes'], /option --super takes no value/],
    [['login-link', '-e', 'a@b.fr'], /"login-link" has no option -e/],
    [['toString'], /unknown command "toString"/],
  ];
  for (const [argv, pattern] of refusals) {
    it(`should refuse "${argv.join(' ')}" with one line`, () => {
      assert.throws(
        () => parseInvocation(argv),
        (error: unknown) => error instanceof CommandError && pattern.test(error.message) && !error.message.includes('\n'),
      );
    });
  }
});

describe('runCommand argument checks', () => {
  const ctx = {} as CommandContext; // never reached: arguments are checked first
  const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
    ['org create', {}, /--name is required/],
    ['org create', { name: '   ' }, /--name is required/],
    ['org create', { name: 'A', colour: 'red' }, /has no option --colour/],
    ['staff create', { email: 'nope' }, /is not a valid e-mail address/],
    ['staff create', { email: 'a@b.fr', super: 'yes' }, /--super takes no value/],
    ['member add', { org: 'nope', email: 'a@b.fr', role: 'AGENT' }, /is not an organization id/],
    ['member add', { org: '00000000-0000-4000-8000-000000000000', email: 'a@b.fr', role: 'OWNER' }, /"OWNER" is not a role/],
    ['member add', { org: '00000000-0000-4000-8000-000000000000', email: 'a@b.fr' }, /--role is required/],
    ['login-link', { email: 42 }, /--email needs a value/],
    ['login-link', { email: 'a\n@b.fr' }, /control characters/],
  ];
  for (const [name, args, pattern] of refusals) {
    it(`should refuse ${name} ${JSON.stringify(args)}`, async () => {
      await rejectsWith(runCommand(ctx, name, args), pattern);
    });
  }
});

describe('org create', () => {
  it('should store the name and key, and refuse a key already taken', async (t) => {
    const { run, database } = await setup(t);
    const { id } = await run('org create', { name: '  Opéra de Lyon ', key: 'OPL001' });
    const row = await database.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.name, 'Opéra de Lyon');
    assert.equal(row.structure_api, 'OPL001');
    await rejectsWith(run('org create', { name: 'Autre', key: 'OPL001' }), /key "OPL001" already exists/);
    const { id: noKey } = await run('org create', { name: 'Sans clé' });
    const second = await database.db.selectFrom('organizations').select('structure_api').where('id', '=', noKey).executeTakeFirstOrThrow();
    assert.equal(second.structure_api, null);
  });
});

describe('member add', () => {
  it('should create the account when needed and record each change in the audit trail', async (t) => {
    const { run, database } = await setup(t);
    const { db } = database;
    const { id: org } = await run('org create', { name: 'Théâtre' });

    const first = await run('member add', { org, email: ' Zoe@Example.COM ', role: 'compta', 'first-name': 'Zoé' });
    assert.equal(first.created, true);
    const account = await db.selectFrom('auth.users').selectAll().where('id', '=', first.user_id).executeTakeFirstOrThrow();
    assert.equal(account.email, 'zoe@example.com');
    assert.equal(account.user_metadata.first_name, 'Zoé');
    assert.equal(account.activated_at, null, 'pending until the first sign-in');
    const prefs = await db.selectFrom('user_auth_preferences').selectAll().where('user_id', '=', first.user_id).executeTakeFirstOrThrow();
    assert.deepEqual([prefs.allow_magic_link, prefs.allow_password], [true, false]);

    const again = await run('member add', { org, email: 'zoe@example.com', role: 'COMPTA' });
    assert.deepEqual(again, { user_id: first.user_id, created: false });
    await run('member add', { org, email: 'zoe@example.com', role: 'Admin' });
    await db.updateTable('organization_members').set({ revoked: true }).where('user_id', '=', first.user_id).execute();
    await run('member add', { org, email: 'zoe@example.com', role: 'ADMIN' });

    const membership = await db.selectFrom('organization_members').selectAll().where('user_id', '=', first.user_id).executeTakeFirstOrThrow();
    assert.equal(membership.role, 'ADMIN');
    assert.equal(membership.revoked, false);
    const events = await db
      .selectFrom('access_events')
      .select(['action', 'actor_email', 'old_role', 'new_role', 'target_email'])
      .where('org_id', '=', org)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => [e.action, e.old_role, e.new_role]),
      [
        ['invited', null, 'COMPTA'],
        ['role_changed', 'COMPTA', 'ADMIN'],
        ['reactivated', 'ADMIN', 'ADMIN'],
      ],
    );
    assert.ok(events.every((e) => e.actor_email === 'cli' && e.target_email === 'zoe@example.com'));
    const mails = await db.selectFrom('mail_outbox').select('id').where('recipient', '=', 'zoe@example.com').execute();
    assert.equal(mails.length, 0, 'member add sends no e-mail');
  });

  it('should add an existing account with created false', async (t) => {
    const { run } = await setup(t);
    const { id: org } = await run('org create', { name: 'A' });
    const { id: other } = await run('org create', { name: 'B' });
    const first = await run('member add', { org, email: 'sam@example.com', role: 'AGENT' });
    const second = await run('member add', { org: other, email: 'sam@example.com', role: 'AGENT' });
    assert.deepEqual(second, { user_id: first.user_id, created: false });
  });

  it('should allow one SUPER_ADMIN per organization and name the one in place', async (t) => {
    const { run, database } = await setup(t);
    const { id: org } = await run('org create', { name: 'Compagnie' });
    await run('member add', { org, email: 'boss@example.com', role: 'SUPER_ADMIN' });
    await rejectsWith(
      run('member add', { org, email: 'other@example.com', role: 'super_admin' }),
      /"Compagnie" already has a SUPER_ADMIN \(boss@example\.com\)/,
    );
    // Nothing half-made: the refused account was rolled back with the membership.
    const other = await database.db.selectFrom('auth.users').select('id').where('email', '=', 'other@example.com').executeTakeFirst();
    assert.equal(other, undefined);
    // The same person again is no second SUPER_ADMIN.
    assert.equal((await run('member add', { org, email: 'boss@example.com', role: 'SUPER_ADMIN' })).created, false);
  });

  it('should refuse an organization that does not exist', async (t) => {
    const { run } = await setup(t);
    await rejectsWith(
      run('member add', { org: '00000000-0000-4000-8000-000000000000', email: 'a@example.com', role: 'AGENT' }),
      /no organization with id 00000000-0000-4000-8000-000000000000/,
    );
  });
});

describe('staff create', () => {
  it('should create an activated staff account that signs in by link and is sent the activation e-mail', async (t) => {
    const { run, database, config } = await setup(t);
    const { db } = database;
    const { user_id } = await run('staff create', { email: 'Nina@Example.com', 'first-name': 'Nina' });
    const account = await db.selectFrom('auth.users').selectAll().where('id', '=', user_id).executeTakeFirstOrThrow();
    assert.equal(account.email, 'nina@example.com');
    assert.ok(account.activated_at instanceof Date);
    const staff = await db.selectFrom('staff_users').selectAll().where('user_id', '=', user_id).executeTakeFirstOrThrow();
    assert.deepEqual([staff.is_staff, staff.level, staff.revoked_at], [true, 'STAFF', null]);
    const prefs = await db.selectFrom('user_auth_preferences').selectAll().where('user_id', '=', user_id).executeTakeFirstOrThrow();
    assert.deepEqual([prefs.allow_magic_link, prefs.allow_password], [true, false]);

    const mails = await db.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'nina@example.com').execute();
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.recipient, 'nina@example.com');
    assert.equal(mails[0]!.subject, 'Activez votre compte');
    assert.ok(mails[0]!.text_body.includes(`${config.publicUrl}/activate#token=`));
    assert.match(mails[0]!.text_body, /type=invite/);

    const [event] = await db.selectFrom('access_events').selectAll().where('target_user_id', '=', user_id).execute();
    assert.equal(event?.action, 'staff_invited');
    assert.equal(event?.actor_email, 'cli');
    assert.equal(event?.new_role, 'STAFF');
  });

  it('should bring back a revoked staff member, and never demote a SUPER_STAFF', async (t) => {
    const { run, database } = await setup(t);
    const { db } = database;
    const { user_id } = await run('staff create', { email: 'max@example.com' });
    await db.updateTable('staff_users').set({ is_staff: false, revoked_at: new Date() }).where('user_id', '=', user_id).execute();
    assert.deepEqual(await run('staff create', { email: 'max@example.com', super: true }), { user_id });
    let staff = await db.selectFrom('staff_users').selectAll().where('user_id', '=', user_id).executeTakeFirstOrThrow();
    assert.deepEqual([staff.is_staff, staff.level, staff.revoked_at], [true, 'SUPER_STAFF', null]);
    await run('staff create', { email: 'max@example.com' });
    staff = await db.selectFrom('staff_users').selectAll().where('user_id', '=', user_id).executeTakeFirstOrThrow();
    assert.equal(staff.level, 'SUPER_STAFF');
  });

  it('should tell the API a new account from an existing one, and refuse a bad address', async (t) => {
    const { database, config } = await setup(t);
    const input = { email: 'lea@example.com', firstName: null, level: 'STAFF' as const, invitedBy: { email: 'boss@example.com' } };
    assert.equal((await createStaffUser(database.db, config, input)).created, true);
    assert.equal((await createStaffUser(database.db, config, input)).created, false);
    for (const [email, code] of [
      ['', 'missing_email'],
      ['lea@', 'invalid_email'],
    ] as const) {
      await assert.rejects(createStaffUser(database.db, config, { ...input, email }), (e: unknown) => e instanceof AppError && e.code === code);
    }
  });

  it('should give, with login-link, a session whose /api/me is the SUPER_STAFF account', async (t) => {
    const { run, app } = await setup(t);
    await run('staff create', { email: 'a@example.com', super: true });
    const { url } = await run('login-link', { email: 'A@example.com' });
    assert.match(url, /^https:\/\/paie\.example\.com\/activate#token=.+&type=magiclink$/);
    const signIn = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: tokenOf(url) } });
    assert.equal(signIn.statusCode, 200);
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookieOf(signIn) } });
    assert.equal(me.json().email, 'a@example.com');
    assert.equal(me.json().staff_level, 'SUPER_STAFF');
  });
});

describe('login-link', () => {
  it('should refuse an unknown account', async (t) => {
    const { run } = await setup(t);
    await rejectsWith(run('login-link', { email: 'ghost@example.com' }), /no account with e-mail ghost@example\.com/);
  });

  it('should retire the previous link when a new one is issued', async (t) => {
    const { run, app } = await setup(t);
    const { id: org } = await run('org create', { name: 'A' });
    await run('member add', { org, email: 'm@example.com', role: 'ADMIN' });
    const older = await run('login-link', { email: 'm@example.com' });
    const newer = await run('login-link', { email: 'm@example.com' });
    const session = (url: string) => app.inject({ method: 'POST', url: '/auth/session', payload: { token: tokenOf(url) } });
    assert.equal((await session(older.url)).statusCode, 401);
    assert.equal((await session(newer.url)).statusCode, 200);
  });
});

describe('migrate', () => {
  it('should apply nothing on a migrated database', async (t) => {
    const { run } = await setup(t);
    assert.deepEqual(await run('migrate'), { applied: [] });
  });
});

describe('seed-demo', () => {
  it('should create the demo set once, however often it runs', async (t) => {
    const { run, database, app } = await setup(t);
    const { db } = database;
    const count = async () => ({
      orgs: (await db.selectFrom('organizations').select('id').execute()).length,
      users: (await db.selectFrom('auth.users').select('id').execute()).length,
      members: (await db.selectFrom('organization_members').select('user_id').execute()).length,
      events: (await db.selectFrom('access_events').select('id').execute()).length,
      mails: (await db.selectFrom('mail_outbox').select('id').execute()).length,
      employees: (await db.selectFrom('employees').select('id').execute()).length,
      contracts: (await db.selectFrom('contracts').select('id').execute()).length,
      invoices: (await db.selectFrom('invoices').select('id').execute()).length,
      contributions: (await db.selectFrom('contribution_calls').select('id').execute()).length,
    });
    const first = await run('seed-demo');
    const counted = await count();
    const second = await run('seed-demo');
    assert.deepEqual(await count(), counted);
    assert.deepEqual(second.organizations, first.organizations);
    const demoOrgs = await db
      .selectFrom('organizations')
      .select('id')
      .where(
        'structure_api',
        'in',
        DEMO_ORGANIZATIONS.map((o) => o.key),
      )
      .execute();
    assert.equal(demoOrgs.length, DEMO_ORGANIZATIONS.length);

    for (const demo of DEMO_ORGANIZATIONS) {
      const org = await db.selectFrom('organizations').select('id').where('structure_api', '=', demo.key).executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('organization_members as m')
        .innerJoin('auth.users as u', 'u.id', 'm.user_id')
        .select(['m.role', 'm.revoked', 'u.activated_at'])
        .where('m.org_id', '=', org.id)
        .execute();
      const roles = rows
        .filter((r) => !r.revoked)
        .map((r) => r.role)
        .sort();
      for (const role of ['SUPER_ADMIN', 'ADMIN', 'AGENT', 'COMPTA']) assert.ok(roles.includes(role as never), `${demo.key} has a ${role}`);
      assert.equal(rows.filter((r) => r.revoked).length, 1, 'one revoked member');
      assert.equal(rows.filter((r) => !r.revoked && r.activated_at === null).length, 1, 'one pending invitation');
    }

    // A living grid: employees and contracts of every kind, in several statuses, with dates.
    const soleil = first.organizations.find((o: { key: string }) => o.key === 'TDS001');
    assert.deepEqual(soleil.payroll, { employees: 4, contracts: 8, payslips: 6, transfers: 2 });
    // January computed from the contracts and validated: Hélène's and Marc's tour; Zoé's CDD skipped.
    assert.deepEqual(
      first.payroll.map((p: Record<string, unknown>) => ({ ...p, contribution_call_id: typeof p.contribution_call_id })),
      [{ organization: 'Théâtre du Soleil', period: '2027-01', payslips: 2, skipped: 1, contribution_call_id: 'string' }],
    );
    assert.deepEqual(second.payroll, []);
    const computed = await db.selectFrom('payslips').select(['status', 'source', 'model_version']).where('source', '=', 'calcule').execute();
    assert.deepEqual(
      computed.map((p) => [p.status, p.model_version]),
      [
        ['publie', MODEL_VERSION],
        ['publie', MODEL_VERSION],
      ],
    );
    const lumiere = first.organizations.find((o: { key: string }) => o.key === 'CLU002');
    assert.deepEqual(lumiere.payroll, { employees: 2, contracts: 2, payslips: 1, transfers: 0 });
    // Hélène's December is paid (executed, with its file); Marc's November waits in a batch, his
    // December is available; Zoé has no IBAN; CLU002 pays itself.
    const batch = await db.selectFrom('transfers').select(['count', 'total', 'status']).orderBy('reference').execute();
    assert.deepEqual(batch, [
      { count: 1, total: '1002.14', status: 'execute' },
      { count: 1, total: '111.15', status: 'genere' },
    ]);
    // Billing: two monthly invoices (October's notification waiting for its document), a
    // contribution call, notification addresses.
    assert.deepEqual(soleil.billing, { invoices: 2, notified: 0, contribution_calls: 2 });
    assert.equal(
      (await db.selectFrom('mail_outbox').select('id').where('kind', '=', 'invoice').execute()).length,
      0,
      'no invoice announced before its document exists',
    );
    // The server's worker makes the documents (the command line has none), then sends October's.
    await app.jobs.worker.runDue();
    const invoices = await db
      .selectFrom('invoices as i')
      .innerJoin('organizations as o', 'o.id', 'i.org_id')
      .select(['i.number', 'i.period_label', 'i.total_ttc', 'i.notified', 'o.structure_api'])
      .orderBy('i.number')
      .execute();
    // Issued today (the series is chronological): numbered in today's year.
    const year = todayInFrance().slice(0, 4);
    assert.deepEqual(
      invoices.map((i) => [i.number, i.structure_api, i.period_label, i.notified]),
      [
        [`F-${year}-000001`, 'TDS001', 'octobre 2026', true],
        [`F-${year}-000002`, 'TDS001', 'novembre 2026', false],
        [`F-${year}-000003`, 'CLU002', 'octobre 2026', true],
        [`F-${year}-000004`, 'CLU002', 'novembre 2026', false],
      ],
    );
    assert.equal(invoices[0]!.total_ttc, '207.60', '8 contracts at 15.50 and 49.00 HT, VAT 20 %');
    const invoiceMails = await db.selectFrom('mail_outbox').select(['recipient', 'cc', 'subject']).where('kind', '=', 'invoice').orderBy('id').execute();
    assert.deepEqual(invoiceMails, [
      { recipient: 'compta@soleil.demo.local', cc: ['direction@soleil.demo.local'], subject: `Votre facture F-${year}-000001 est disponible` },
      { recipient: 'compta@lumiere.demo.local', cc: ['direction@lumiere.demo.local'], subject: `Votre facture F-${year}-000003 est disponible` },
    ]);
    const contracts = await db
      .selectFrom('contracts as c')
      .innerJoin('organizations as o', 'o.id', 'c.org_id')
      .select(['c.kind', 'c.status', 'c.gross_total', 'c.contract_number'])
      .where('o.structure_api', '=', 'TDS001')
      .orderBy('c.contract_number')
      .execute();
    assert.deepEqual(new Set(contracts.map((c) => c.kind)), new Set(['CDDU', 'CDD', 'CDI']));
    assert.deepEqual(new Set(contracts.map((c) => c.status)), new Set(['brouillon', 'a_signer', 'annule']));
    assert.equal(contracts[0]!.gross_total, '1284.80', '3 rehearsals at 120.00 and 4 performances at 231.20');
    assert.ok(contracts.every((c) => /^C-\d{4}-\d{6}$/.test(c.contract_number)));

    const staff = await db
      .selectFrom('staff_users as s')
      .innerJoin('auth.users as u', 'u.id', 's.user_id')
      .select(['s.level', 's.is_staff'])
      .where('u.email', '=', DEMO_STAFF_EMAIL)
      .executeTakeFirstOrThrow();
    assert.deepEqual([staff.is_staff, staff.level], [true, 'SUPER_STAFF']);

    // The printed links sign in: the staff account, and an administrator of the first organization.
    const admin = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: tokenOf(second.org_admin.login_url) } });
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookieOf(admin) } });
    assert.equal(me.json().memberships[0].org_name, DEMO_ORGANIZATIONS[0]!.name);
    const staffSignIn = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: tokenOf(second.staff.login_url) } });
    assert.equal(staffSignIn.statusCode, 200);
    const available = await app.inject({ method: 'GET', url: '/api/staff/payslips/available', headers: { cookie: sessionCookieOf(staffSignIn) } });
    assert.deepEqual(
      available.json().items.map((p: { period: string; net_to_pay: string }) => [p.period, p.net_to_pay]),
      [
        ['2026-12', '516.36'],
        // January's computed payslips (the model's figures with the overlay of law/spectacle): payable like any other.
        ['2027-01', '376.65'],
        ['2027-01', '544.65'],
      ],
    );

    // A re-run prints what the organizations hold now, not the original seed.
    const agentEmail = 'agent@soleil.demo.local';
    const agent = await db.selectFrom('auth.users').select('id').where('email', '=', agentEmail).executeTakeFirstOrThrow();
    await db.updateTable('organization_members').set({ revoked: true, revoked_at: new Date() }).where('user_id', '=', agent.id).execute();
    const third = await run('seed-demo');
    const soleilNow = third.organizations.find((o: { key: string }) => o.key === 'TDS001');
    assert.deepEqual(
      soleilNow.members.find((m: { email: string }) => m.email === agentEmail),
      { email: agentEmail, role: 'AGENT', state: 'revoked' },
    );
    assert.equal(soleilNow.members.length, 6);
    assert.ok(third.staff.login_url.startsWith(`${third.public_url}/activate#token=`));
    assert.match(third.note, /^The links start with PUBLIC_URL \(http/);
  });
});
