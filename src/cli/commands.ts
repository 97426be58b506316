/**
 * The commands of the command line, as functions of `{ db, config }`.
 *
 * They run in the CLI process on a database it opened, or inside a running server that
 * holds the embedded database, sent over its control socket (`control-socket.ts`). Both
 * paths go through `runCommand`, so the arguments are checked the same way wherever the
 * command runs. Every failure a user can cause is a `CommandError`: one line, no stack.
 */
import { listOrgMembersJson } from '../access/access.repository.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { applyChange, type Change } from '../audit/change.ts';
import { hasUnsafeCharacters } from '../http/input.ts';
import { isPlausibleEmail, normalizeEmail } from '../identity/email.ts';
import { findUserByEmail, markActivated } from '../identity/identity.repository.ts';
import { activationUrl, issueOneTimeToken } from '../identity/identity.service.ts';
import * as members from '../org/membership.repository.ts';
import { grantRole } from '../org/membership.service.ts';
import { createOrganization, findOrganization, findOrganizationByKey } from '../org/org.repository.ts';
import { isMemberRole, isProtectedRole, MEMBER_ROLES, ROLE, type MemberRole } from '../org/permissions.ts';
import { isUuid } from '../org/resolution.ts';
import type { OrgSettingsInput } from '../org/org-settings.rules.ts';
import { updateOrgSettings } from '../org/org-settings.service.ts';
import { AppError } from '../http/errors.ts';
import { DEMO_PAYROLL, payrollCounts, seedPayroll } from './demo-payroll.ts';
import { definePayrollRun } from '../payroll/runner.ts';
import { JobWorker } from '../jobs/worker.ts';
import { closePayrollPool } from '../payroll/compute-pool.ts';
import { readRun, startRun, validateDrafts } from '../payroll/payroll.service.ts';
import { useConfigForCalls } from '../contributions/contributions.service.ts';
import { billingCounts, seedBilling } from './demo-billing.ts';
import { createStaffUser } from '../staff/staff.service.ts';
import { openFileStore } from '../files/files.plugin.ts';
import { OPERATOR_NAME_DEFAULT } from '../operator.rules.ts';
import { operatorSettings, updateOperatorSettings } from '../operator/operator.service.ts';
import type { SepaContext } from '../transfers/transfers.service.ts';
import { findStaffUser } from '../staff/staff.repository.ts';

export interface CommandContext {
  db: Database;
  config: Config;
}

/** A mistake the user can fix: printed as one line, exit status 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

type OptionType = { type: 'string' } | { type: 'boolean' };
export type RawArgs = Record<string, unknown>;

interface CommandDefinition<Input> {
  /** `node:util` parseArgs options; the same names are the keys of the control-socket `args`. */
  options: Record<string, OptionType>;
  usage: string;
  /** Checks and normalises the arguments; runs before any database is opened. */
  prepare(args: RawArgs): Input;
  run(ctx: CommandContext, input: Input): Promise<object>;
}

function define<Input>(definition: CommandDefinition<Input>): CommandDefinition<unknown> {
  return definition as CommandDefinition<unknown>;
}

// ---------------------------------------------------------------------------------------
// Argument checks, shared by every command.

function optionalText(args: RawArgs, name: string, maxLength = 200): string | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new CommandError(`--${name} needs a value`);
  const trimmed = value.trim();
  if (trimmed.length > maxLength) throw new CommandError(`--${name} is too long (${maxLength} characters at most)`);
  if (hasUnsafeCharacters(trimmed)) throw new CommandError(`--${name} contains control characters or bidirectional marks`);
  return trimmed;
}

function requiredText(args: RawArgs, name: string, maxLength?: number): string {
  const value = optionalText(args, name, maxLength);
  if (!value) throw new CommandError(`--${name} is required`);
  return value;
}

export function parseEmail(args: RawArgs): string {
  const raw = requiredText(args, 'email', 254);
  const email = normalizeEmail(raw);
  if (!isPlausibleEmail(email)) throw new CommandError(`--email "${raw}" is not a valid e-mail address`);
  return email;
}

function parseRole(args: RawArgs): MemberRole {
  const role = requiredText(args, 'role').toUpperCase();
  if (!isMemberRole(role)) throw new CommandError(`--role "${role}" is not a role: choose ${MEMBER_ROLES.join(', ')}`);
  return role;
}

function parseOrgId(args: RawArgs): string {
  const id = requiredText(args, 'org');
  if (!isUuid(id)) throw new CommandError(`--org "${id}" is not an organization id (a UUID, as printed by "org create")`);
  return id.toLowerCase();
}

// ---------------------------------------------------------------------------------------
// The work, also used by seed-demo.

export interface MembershipChange {
  orgId: string;
  email: string;
  role: MemberRole;
  firstName?: string | null;
}

/**
 * Gives the account of `email` the role in the organization, creating the account (not
 * activated: it signs in by link) when needed, and records the change in the audit trail.
 * Runs inside the caller's change. No e-mail is sent.
 */
export async function applyMembership(
  change: Change,
  membership: MembershipChange,
  org: { id: string; name: string },
): Promise<{ userId: string; created: boolean }> {
  if (isProtectedRole(membership.role)) {
    const holder = await members.otherProtectedHolder(change.trx, org.id, membership.email);
    if (holder) throw superAdminTaken(org, holder);
  }
  const { account, created, previous, action } = await grantRole(change.trx, org, membership);
  if (action) {
    await change.audit({
      org_id: org.id,
      action,
      ...actorOf(null),
      target_user_id: account.id,
      target_email: account.email,
      old_role: previous?.role ?? null,
      new_role: membership.role,
    });
  }
  return { userId: account.id, created };
}

function superAdminTaken(org: { name: string }, holder?: string): CommandError {
  return new CommandError(`organization "${org.name}" already has a SUPER_ADMIN${holder ? ` (${holder})` : ''}: there is one per organization`);
}

async function requireOrganization(db: Database, orgId: string) {
  const org = await findOrganization(db, orgId);
  if (!org) throw new CommandError(`no organization with id ${orgId}`);
  return org;
}

/** A one-time sign-in link for an existing account (`login-link`). */
export async function signInLinkFor(db: Database, config: Config, email: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const account = await findUserByEmail(trx, email);
    if (!account) throw new CommandError(`no account with e-mail ${email}`);
    return activationUrl(config.publicUrl, await issueOneTimeToken(trx, account.id, 'magiclink'), 'magiclink');
  });
}

// ---------------------------------------------------------------------------------------
// seed-demo: a data set to try the product. Idempotent: what exists is left as it is.

type DemoState = 'active' | 'pending' | 'revoked';

interface DemoMember {
  email: string;
  firstName: string;
  role: MemberRole;
  state: DemoState;
}

interface DemoOrganization {
  name: string;
  key: string;
  /** The part of its demo addresses after the `@`: `soleil` in `agent@soleil.demo.local`. */
  slug: string;
  members: DemoMember[];
}

export const DEMO_STAFF_EMAIL = 'staff@demo.local';

function demoMembers(slug: string, names: [string, string, string, string, string, string]): DemoMember[] {
  const [superAdmin, admin, agent, compta, invited, former] = names;
  return [
    { email: `direction@${slug}.demo.local`, firstName: superAdmin, role: ROLE.superAdmin, state: 'active' },
    { email: `admin@${slug}.demo.local`, firstName: admin, role: ROLE.admin, state: 'active' },
    { email: `agent@${slug}.demo.local`, firstName: agent, role: ROLE.agent, state: 'active' },
    { email: `compta@${slug}.demo.local`, firstName: compta, role: ROLE.compta, state: 'active' },
    { email: `invitation@${slug}.demo.local`, firstName: invited, role: ROLE.agent, state: 'pending' },
    { email: `ancien@${slug}.demo.local`, firstName: former, role: ROLE.agent, state: 'revoked' },
  ];
}

export const DEMO_ORGANIZATIONS: DemoOrganization[] = [
  { name: 'Théâtre du Soleil', key: 'TDS001', slug: 'soleil', members: demoMembers('soleil', ['Ariane', 'Bruno', 'Chloé', 'Denis', 'Elsa', 'Fabien']) },
  { name: 'Compagnie Lumière', key: 'CLU002', slug: 'lumiere', members: demoMembers('lumiere', ['Gaëlle', 'Hugo', 'Inès', 'Jules', 'Karim', 'Léa']) },
];

async function seedOrganization(change: Change, sepa: SepaContext, demo: DemoOrganization) {
  const { config } = sepa;
  const { trx } = change;
  const org = (await findOrganizationByKey(trx, demo.key)) ?? {
    id: await createOrganization(trx, { name: demo.name, structure_api: demo.key }),
    name: demo.name,
  };
  const seeded: Array<{ email: string; role: string; state: DemoState }> = [];
  for (const member of demo.members) {
    const account = await findUserByEmail(trx, member.email);
    const current = account ? await members.findMembership(trx, org.id, account.id) : undefined;
    if (!current) {
      const { userId } = await applyMembership(change, { orgId: org.id, email: member.email, role: member.role, firstName: member.firstName }, org);
      if (member.state !== 'pending') await markActivated(trx, userId);
      if (member.state === 'revoked') {
        await members.revokeMembership(trx, org.id, userId);
        await change.audit({
          org_id: org.id,
          action: 'revoked',
          ...actorOf(null),
          target_user_id: userId,
          target_email: member.email,
          old_role: member.role,
          new_role: null,
        });
      }
    }
  }
  // What the organization holds now (a re-run shows today's state, not the original seed).
  const current = JSON.parse(await listOrgMembersJson(trx, org.id)) as Array<{ email: string; role: string; revoked: boolean; activated: boolean }>;
  for (const m of current.reverse()) {
    seeded.push({ email: m.email, role: m.role, state: m.revoked ? 'revoked' : m.activated ? 'active' : 'pending' });
  }
  // The payroll data is recorded as prepared by the organization's agent.
  const agent = demo.members.find((m) => m.role === ROLE.agent && m.state === 'active')!;
  const agentAccount = (await findUserByEmail(trx, agent.email))!;
  const payroll = await seedPayroll(change, sepa, org.id, { userId: agentAccount.id, email: agent.email }, DEMO_PAYROLL[demo.key]!);
  const billing = await seedBilling(change, config, org.id, demo.slug, payroll.contracts);
  return { id: org.id, name: org.name, key: demo.key, members: seeded, payroll, billing };
}

/** The demo data set, then a sign-in link for the staff account and for one administrator. */
export async function seedDemo({ db, config }: CommandContext) {
  const staff = await findUserByEmail(db, DEMO_STAFF_EMAIL);
  const staffRecord = staff ? await findStaffUser(db, staff.id) : undefined;
  if (!staffRecord?.is_staff) {
    await createStaffUser(db, config, { email: DEMO_STAFF_EMAIL, firstName: 'Sam', level: 'SUPER_STAFF', invitedBy: null });
  }
  const operator = await seedOperator(db, config);
  const { files, blobs } = await openFileStore(db, config);
  let organizations: Awaited<ReturnType<typeof seedOrganization>>[];
  try {
    organizations = await applyChange({ db }, async (change) => {
      const result = [];
      for (const demo of DEMO_ORGANIZATIONS) result.push(await seedOrganization(change, { config, files }, demo));
      return result;
    });
  } finally {
    blobs?.close();
  }
  const payroll = await seedComputedMonths(db);
  // The counts after the computed months: the same output however often the seed runs.
  for (const org of organizations) Object.assign(org, { payroll: await payrollCounts(db, org.id), billing: await billingCounts(db, org.id) });
  const admin = DEMO_ORGANIZATIONS[0]!.members.find((m) => isProtectedRole(m.role))!;
  return {
    organizations,
    payroll,
    operator,
    staff: { email: DEMO_STAFF_EMAIL, level: 'SUPER_STAFF', login_url: await signInLinkFor(db, config, DEMO_STAFF_EMAIL) },
    org_admin: {
      email: admin.email,
      organization: DEMO_ORGANIZATIONS[0]!.name,
      role: admin.role,
      login_url: await signInLinkFor(db, config, admin.email),
    },
    public_url: config.publicUrl,
    note:
      `The links start with PUBLIC_URL (${config.publicUrl}), as the server's will: start it with the same PORT or PUBLIC_URL. ` +
      'Sign-in links work once and expire after an hour; "login-link --email E" gives a new one for any account.',
  };
}

/**
 * A fictional operator, complete and valid (SIREN and SIRET with their Luhn keys, the VAT number
 * of that SIREN, a French test IBAN with its check digits and its bank's BIC), so that the demo's
 * SEPA files and invoice documents are made with nothing set by hand.
 */
export const DEMO_OPERATOR = {
  name: 'Odentas Paie (démo)',
  siren: '843127630',
  siret: '84312763000013',
  vat: 'FR38843127630',
  address: '12 rue de la Paix',
  postcode: '75002',
  city: 'Paris',
  iban: 'FR7630006000011234567890189',
  bic: 'AGRIFRPP',
} as const;

/**
 * The demo operator's settings where nothing is set yet, neither saved nor by an environment
 * variable (a re-run, or an operator configured otherwise, keeps what it has); the SIREN and the
 * SIRET go together. Answers which settings it saved.
 */
async function seedOperator(db: Database, config: Config) {
  const current = await operatorSettings(db, config);
  const unset: Partial<Record<keyof typeof DEMO_OPERATOR, string>> = {};
  for (const field of ['vat', 'address', 'postcode', 'city', 'iban', 'bic'] as const) {
    if (!current[field]) unset[field] = DEMO_OPERATOR[field];
  }
  if (!current.siren && !current.siret) Object.assign(unset, { siren: DEMO_OPERATOR.siren, siret: DEMO_OPERATOR.siret });
  // The name's default ("Payroll") is a placeholder, not a name a bank file should carry.
  if (current.name === OPERATOR_NAME_DEFAULT) unset.name = DEMO_OPERATOR.name;
  if (Object.keys(unset).length > 0) await updateOperatorSettings({ db }, config, null, unset);
  return { saved: Object.keys(unset) };
}

/**
 * The demo months computed from the contracts and validated (docs/payroll.md), unless already done:
 * the run's job is run here, in this process (`runDue`); the bulletins' jobs are left to the server.
 */
async function seedComputedMonths(db: Database) {
  const done = [];
  const quiet = { info() {}, warn() {}, error() {} };
  const runs = new JobWorker({ db, log: quiet });
  definePayrollRun(runs, { ctx: { db }, log: quiet });
  const staff = (await findUserByEmail(db, DEMO_STAFF_EMAIL))!;
  const caller = { userId: staff.id, email: DEMO_STAFF_EMAIL };
  try {
    for (const demo of DEMO_ORGANIZATIONS) {
      const period = DEMO_PAYROLL[demo.key]?.computedPeriod;
      const org = await findOrganizationByKey(db, demo.key);
      if (!period || !org) continue;
      const computed = await db
        .selectFrom('payslips')
        .select('id')
        .where('org_id', '=', org.id)
        .where('period', '=', period)
        .where('source', '=', 'calcule')
        .executeTakeFirst();
      if (computed) continue;
      const { run_id } = await startRun({ db }, caller, { org_id: org.id, period });
      await runs.runDue();
      const run = await readRun(db, run_id);
      if (run.status !== 'termine') throw new Error(`seed-demo: the payroll run of ${period} failed: ${run.message ?? run.status}`);
      const validated = await validateDrafts({ db }, caller, { org_id: org.id, period });
      done.push({
        organization: demo.name,
        period,
        payslips: validated.published.length,
        skipped: run.skipped.length,
        contribution_call_id: validated.contribution_call_id,
      });
    }
  } finally {
    await closePayrollPool();
  }
  return done;
}

/** `org update`'s options and the organization fields they set. */
const ORG_UPDATE_OPTIONS: Array<[string, keyof OrgSettingsInput]> = [
  ['email-notifs', 'email_notifs'],
  ['email-notifs-cc', 'email_notifs_cc'],
  ['virements-salaires', 'virements_salaires'],
  ['documents-slug', 'documents_slug'],
  ['siret', 'siret'],
  ['effectif', 'effectif'],
  ['convention', 'convention'],
  ['categorie-juridique', 'categorie_juridique'],
  ['taux-at', 'taux_at'],
  ['address-line', 'address_line'],
  ['postcode', 'postcode'],
  ['city', 'city'],
  ['country', 'country'],
  ['ape-code', 'ape_code'],
  ['urssaf', 'urssaf'],
];

// ---------------------------------------------------------------------------------------
// The commands.

export const COMMANDS: Record<string, CommandDefinition<unknown>> = {
  migrate: define({
    options: {},
    usage: 'migrate',
    prepare: () => ({}),
    async run({ db }) {
      return { applied: await migrateToLatest(db) };
    },
  }),

  'org create': define({
    options: { name: { type: 'string' }, key: { type: 'string' } },
    usage: 'org create --name N [--key K]',
    prepare: (args) => ({ name: requiredText(args, 'name'), key: optionalText(args, 'key', 100) || null }),
    async run({ db }, input: { name: string; key: string | null }) {
      try {
        return { id: await createOrganization(db, { name: input.name, structure_api: input.key }) };
      } catch (error) {
        if (isUniqueViolation(error)) throw new CommandError(`an organization with key "${input.key}" already exists`);
        throw error;
      }
    },
  }),

  'org update': define({
    options: {
      id: { type: 'string' },
      'email-notifs': { type: 'string' },
      'email-notifs-cc': { type: 'string' },
      'virements-salaires': { type: 'string' },
      'documents-slug': { type: 'string' },
      siret: { type: 'string' },
      effectif: { type: 'string' },
      convention: { type: 'string' },
      'categorie-juridique': { type: 'string' },
      'taux-at': { type: 'string' },
      'address-line': { type: 'string' },
      postcode: { type: 'string' },
      city: { type: 'string' },
      country: { type: 'string' },
      'ape-code': { type: 'string' },
      urssaf: { type: 'string' },
    },
    usage:
      'org update --id ID [--email-notifs a@x,b@y] [--email-notifs-cc c@z] [--virements-salaires Odentas|client] [--documents-slug S] [--siret N]' +
      ' [--effectif N] [--convention SVP|droit_commun] [--categorie-juridique association|SARL|SAS|SELARL|SELAS|EI|autre] [--taux-at R]' +
      ' [--address-line L] [--postcode P] [--city C] [--country FR] [--ape-code 9001Z] [--urssaf "Urssaf Île-de-France"]',
    prepare: (args) => {
      const id = requiredText(args, 'id');
      if (!isUuid(id)) throw new CommandError(`--id "${id}" is not an organization id (a UUID, as printed by "org create")`);
      // An empty value clears (`--email-notifs ""`); an option left out keeps its value.
      const settings: OrgSettingsInput = {};
      for (const [option, field] of ORG_UPDATE_OPTIONS) {
        const value = optionalText(args, option, 4000);
        if (value !== undefined) settings[field] = value;
      }
      if (Object.keys(settings).length === 0)
        throw new CommandError(`nothing to update: give at least one of ${ORG_UPDATE_OPTIONS.map(([o]) => `--${o}`).join(', ')}`);
      return { id: id.toLowerCase(), settings };
    },
    async run({ db }, input: { id: string; settings: OrgSettingsInput }) {
      try {
        return await updateOrgSettings({ db }, null, input.id, input.settings);
      } catch (error) {
        // The service's French message names the field; the command line speaks English.
        if (error instanceof AppError && error.status < 500) throw new CommandError(`${error.code}: ${error.userMessage ?? error.code}`);
        throw error;
      }
    },
  }),

  'staff create': define({
    options: { email: { type: 'string' }, 'first-name': { type: 'string' }, super: { type: 'boolean' } },
    usage: 'staff create --email E [--first-name F] [--super]',
    prepare: (args) => {
      if (args.super !== undefined && typeof args.super !== 'boolean') throw new CommandError('--super takes no value');
      return { email: parseEmail(args), firstName: optionalText(args, 'first-name', 100) || null, superStaff: args.super === true };
    },
    async run({ db, config }, input: { email: string; firstName: string | null; superStaff: boolean }) {
      const { userId } = await createStaffUser(db, config, {
        email: input.email,
        firstName: input.firstName,
        level: input.superStaff ? 'SUPER_STAFF' : 'STAFF',
        invitedBy: null,
      });
      return { user_id: userId };
    },
  }),

  'member add': define({
    options: { org: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, 'first-name': { type: 'string' } },
    usage: 'member add --org ID --email E --role R [--first-name F]',
    prepare: (args): MembershipChange => ({
      orgId: parseOrgId(args),
      email: parseEmail(args),
      role: parseRole(args),
      firstName: optionalText(args, 'first-name', 100) || null,
    }),
    async run({ db }, input: MembershipChange) {
      const org = await requireOrganization(db, input.orgId);
      try {
        const { userId, created } = await applyChange({ db }, (change) => applyMembership(change, input, org));
        return { user_id: userId, created };
      } catch (error) {
        // Two concurrent SUPER_ADMIN assignments: the unique index decides.
        if (isUniqueViolation(error, 'organization_members_one_super_admin')) throw superAdminTaken(org);
        throw error;
      }
    },
  }),

  'login-link': define({
    options: { email: { type: 'string' } },
    usage: 'login-link --email E',
    prepare: (args) => ({ email: parseEmail(args) }),
    async run({ db, config }, input: { email: string }) {
      return { url: await signInLinkFor(db, config, input.email) };
    },
  }),

  'seed-demo': define({
    options: {},
    usage: 'seed-demo',
    prepare: () => ({}),
    run: (ctx) => seedDemo(ctx),
  }),
};

export const USAGE = `usage: payroll-access <${Object.keys(COMMANDS).join(' | ')}> [options]`;

export function findCommand(name: string): CommandDefinition<unknown> {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new CommandError(`unknown command "${name}"; ${USAGE}`);
  return command;
}

/** Checks a command's arguments without touching a database; returns its prepared input. */
export function prepareCommand(name: string, args: RawArgs): unknown {
  const command = findCommand(name);
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(command.options, key)) throw new CommandError(`"${name}" has no option --${key}; usage: payroll-access ${command.usage}`);
  }
  return command.prepare(args);
}

/** Runs a command: checks its arguments, then does the work. */
export async function runCommand(ctx: CommandContext, name: string, args: RawArgs): Promise<object> {
  const input = prepareCommand(name, args);
  useConfigForCalls(ctx.config);
  return findCommand(name).run(ctx, input);
}
