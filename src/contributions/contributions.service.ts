/**
 * Contribution calls (appels de cotisations): staff create them for an
 * organization; its COMPTA and administrators read them (`GET /api/cotisations`). Staff:
 * staff list every organization's calls, notify one to its organization's addresses by e-mail
 * (through the outbox, like invoices) and mark one paid (`paye`).
 */
import { operatorSettings } from '../operator/operator.service.ts';
import { orgErrors } from '../org/org.errors.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import type { Database } from '../db/database.ts';
import { decodeCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { compareMoney, moneyFromDb, subtractMoney, sumMoney, type Money } from '../money/money.ts';
import { formatSeriesNumber, nextInSeries } from '../db/number-series.ts';
import { numberingYear } from '../format/calendar.ts';
import { contributionErrors } from './contribution.errors.ts';
import { parsePeriodFilter } from '../format/calendar.ts';
import { formatDateFr, formatEuros, formatPeriodFr, todayInFrance } from '../format/french.ts';
import { fieldErrors } from '../http/errors.ts';
import { isUuid } from '../http/input.ts';
import type { Config } from '../config.ts';
import type { ContributionLine, ContributionStatus } from '../db/schema.ts';
import type { OutgoingMail } from '../mail/outbox.ts';
import { contributionCallEmail } from './contribution.mail.ts';
import { organismLabel } from './contribution.labels.ts';
import {
  checkContributionCall,
  contributionDueDate,
  contributionLines,
  withdrawnLines,
  type ContributionCallInput,
  type OwedLine,
} from './contribution.rules.ts';
import * as repo from './contributions.repository.ts';
import type { Static } from '@sinclair/typebox';
import { checkField } from '../schemas/fields.ts';
import { ContributionPaidBody, type ContributionCallBody } from '../schemas/invoices.ts';

type Row = repo.CallRow;

function callOf(row: Row) {
  return {
    id: row.id,
    org_id: row.org_id,
    number: row.number,
    origin: row.origin,
    first_call_number: row.first_call_number ?? null,
    period: row.period,
    due_date: row.due_date,
    total: moneyFromDb(row.total),
    lines: row.lines.map((l) => ({ organism: l.organism, amount: moneyFromDb(l.amount) })),
    status: row.status,
    payslips_counted_in: Number(row.payslips_counted_in ?? 0),
    payslips_counted_out: Number(row.payslips_counted_out ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type ContributionCallView = ReturnType<typeof callOf>;

/** The next call number, `AC-YYYY-NNNNNN`, in the change's transaction (gap-free). */
async function nextCallNumber(change: Change): Promise<string> {
  const year = numberingYear(new Date());
  return formatSeriesNumber('AC', year, await nextInSeries(change.trx, 'AC', year));
}

async function insertCall(change: Change, call: ContributionCallInput, origin: 'paie' | 'saisi', firstCallId: string | null): Promise<string> {
  return repo.insertContributionCall(change.trx, { ...call, number: await nextCallNumber(change), origin, first_call_id: firstCallId });
}

/** A contribution call typed by staff, in the change's transaction (also used by seed-demo). */
export async function insertNewContributionCall(change: Change, caller: Pick<Caller, 'userId' | 'email'> | null, input: Static<typeof ContributionCallBody>) {
  const call = checkContributionCall(input);
  if (!(await repo.organizationExists(change.trx, call.org_id))) throw orgErrors.orgInBodyNotFound();
  const id = await insertCall(change, call, 'saisi', null);
  const row = await repo.findContributionCall(change.trx, id);
  await change.event({
    org_id: call.org_id,
    action: 'contribution_call.created',
    subject_type: 'contribution_call',
    subject_id: id,
    ...actorOf(caller),
    details: { number: row.number, origin: 'saisi', period: call.period, total: call.total },
  });
  return callOf(row);
}

/** `POST /api/staff/cotisations`. */
export function createContributionCall(ctx: ChangeContext, caller: Caller, input: Static<typeof ContributionCallBody>) {
  return applyChange(ctx, (change) => insertNewContributionCall(change, caller, input));
}

/** `GET /api/cotisations`: the organization's calls, newest period first (`?period=` filters). */
export async function listContributionCalls(db: Database, orgId: string, query: { limit?: string; cursor?: string; period?: string }) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  const period = parsePeriodFilter(query.period) ?? null;
  const rows = await repo.listContributionCalls(db, orgId, period, cursor, limit);
  const page = keysetPage(rows, limit, (row) => [row.period, row.id]);
  return { items: page.items.map(callOf), next_cursor: page.next_cursor };
}

// ---------------------------------------------------------------------------------------
// The staff's list, the notification and the payment.

export interface ContributionContext extends ChangeContext {
  config: Config;
}

function staffCallOf(row: repo.StaffCallRow) {
  return {
    ...callOf(row),
    org_name: row.org_name,
    notified_at: row.notified_at,
    paid_date: row.paid_date,
  };
}

const STATUSES: readonly ContributionStatus[] = ['a_payer', 'paye'];

/** `GET /api/staff/cotisations`: every organization's calls (or `org_id`'s), newest period first; `period`, `status` filters. */
export async function listStaffContributionCalls(db: Database, query: { limit?: string; cursor?: string; org_id?: string; period?: string; status?: string }) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  if (query.org_id && !isUuid(query.org_id)) throw fieldErrors.invalid('org_id', "L'organisation");
  const period = parsePeriodFilter(query.period);
  if (query.status && !(STATUSES as readonly string[]).includes(query.status)) throw contributionErrors.invalidStatus();
  const rows = await repo.listStaffContributionCalls(
    db,
    { orgId: query.org_id ? query.org_id.toLowerCase() : undefined, period, status: (query.status || undefined) as ContributionStatus | undefined },
    cursor,
    limit,
  );
  const page = keysetPage(rows, limit, (row) => [row.period, row.id]);
  return { items: page.items.map(staffCallOf), next_cursor: page.next_cursor };
}

/** `GET /api/staff/cotisations/{id}`. */
export async function readStaffContributionCall(db: Database, id: string) {
  const row = isUuid(id) ? await repo.findStaffContributionCall(db, id.toLowerCase()) : undefined;
  if (!row) throw contributionErrors.notFound();
  return staffCallOf(row);
}

type LockedCall = NonNullable<Awaited<ReturnType<typeof repo.lockContributionCall>>>;

async function lockOrNotFound(change: Change, id: string): Promise<LockedCall> {
  const row = isUuid(id) ? await repo.lockContributionCall(change.trx, id.toLowerCase()) : undefined;
  if (!row) throw contributionErrors.notFound();
  return row;
}

interface CallMailFacts {
  id: string;
  number: string;
  org_name: string;
  period: string;
  due_date: string;
  total: string;
  lines: ContributionLine[];
  first_call_number: string | null;
  email_notifs: string[];
  email_notifs_cc: string[];
}

/** The e-mail of a call: To every `email_notifs`, Cc every `email_notifs_cc` (as an invoice's). */
async function contributionCallMail(
  db: Database,
  config: Config,
  call: CallMailFacts,
  revision: { before: Money; added: number; removed: number } | null,
): Promise<OutgoingMail> {
  const operator = await operatorSettings(db, config);
  const total = moneyFromDb(call.total);
  const sign = compareMoney(total, '0.00' as Money);
  const covered = call.first_call_number ? await repo.coveredPayslips(db, call.id) : [];
  return {
    kind: revision ? 'contribution_call_revised' : 'contribution_call',
    to: call.email_notifs,
    cc: call.email_notifs_cc,
    ...contributionCallEmail({
      number: call.number,
      orgName: call.org_name,
      period: formatPeriodFr(call.period),
      dueDate: formatDateFr(call.due_date),
      total: formatEuros(sign < 0 ? subtractMoney('0.00' as Money, total) : total),
      balance: sign < 0 ? 'credit' : sign === 0 ? 'zero' : 'due',
      lines: call.lines.map((line) => ({ organism: organismLabel(line.organism), amount: formatEuros(moneyFromDb(line.amount)) })),
      complement: call.first_call_number
        ? { firstNumber: call.first_call_number, payslips: covered.map((p) => ({ name: `${p.first_name} ${p.last_name}`, cancelled: p.effect === 'annule' })) }
        : null,
      revision: revision ? { before: formatEuros(revision.before), added: revision.added, removed: revision.removed } : null,
      operatorName: operator.name,
      operatorIban: operator.iban,
      operatorBic: operator.bic,
      callsUrl: `${config.publicUrl}/factures#calls`,
      supportEmail: config.supportEmail,
    }),
  };
}

/**
 * `POST /api/staff/cotisations/{id}/notifier`: the e-mail in the outbox and `notified_at` in one
 * transaction; again when asked again. 409 `no_recipient` without a notification address,
 * 409 `already_paid` once paid.
 */
export async function notifyContributionCall(ctx: ContributionContext, caller: Caller, id: string) {
  await applyChange(ctx, async (change) => {
    const call = await lockOrNotFound(change, id);
    if (call.status === 'paye') throw contributionErrors.alreadyPaid(call.paid_date);
    if (call.email_notifs.length === 0) throw contributionErrors.noRecipient();
    // A call to pay names the account to pay to; a credit or a call of nothing needs none.
    const due = compareMoney(moneyFromDb(call.total), '0.00' as Money) > 0;
    if (due && !(await operatorSettings(change.trx, ctx.config)).iban) throw contributionErrors.operatorAccountMissing();
    await change.mail(await contributionCallMail(change.trx, ctx.config, { ...call, first_call_number: call.first_call_number ?? null }, null));
    await repo.markNotified(change.trx, call.id);
    await change.event({
      org_id: call.org_id,
      action: 'contribution_call.notified',
      subject_type: 'contribution_call',
      subject_id: call.id,
      ...actorOf(caller),
      details: {
        number: call.number,
        period: call.period,
        total: moneyFromDb(call.total),
        to: call.email_notifs,
        cc: call.email_notifs_cc,
        again: call.notified_at !== null,
      },
    });
  });
  return readStaffContributionCall(ctx.db, id);
}

/** The day it was paid: today (in France) when absent; never in the future. */
function checkPaidDate(raw: unknown, today: string): string {
  if (raw === undefined || raw === null || raw === '') return today;
  const date = checkField(ContributionPaidBody.properties.paid_date, raw);
  if (date > today) throw contributionErrors.paidDateInFuture(today);
  return date;
}

/** `POST /api/staff/cotisations/{id}/paye`: status `paye` with its date; 409 `already_paid`. */
export async function markContributionCallPaid(ctx: ChangeContext, caller: Caller, id: string, body: Static<typeof ContributionPaidBody>) {
  const paidDate = checkPaidDate(body.paid_date, todayInFrance());
  await applyChange(ctx, async (change) => {
    const call = await lockOrNotFound(change, id);
    if (call.status === 'paye') throw contributionErrors.alreadyPaid(call.paid_date);
    await repo.markPaid(change.trx, call.id, paidDate);
    await change.event({
      org_id: call.org_id,
      action: 'contribution_call.paid',
      subject_type: 'contribution_call',
      subject_id: call.id,
      ...actorOf(caller),
      details: { period: call.period, total: moneyFromDb(call.total), paid_date: paidDate },
    });
  });
  return readStaffContributionCall(ctx.db, id);
}

// ---------------------------------------------------------------------------------------
// One call per organization and month, revised, never duplicated.

/**
 * The configuration a revision's e-mail needs (links, support address, the operator): a
 * revision happens inside other modules' changes (validation, payslips), whose contexts do not
 * carry it. Set once at start by the server and by the command line.
 */
let callsConfig: Config | null = null;
export function useConfigForCalls(config: Config): void {
  callsConfig = config;
}
function configForCalls(): Config {
  if (!callsConfig) throw new Error('contribution calls: useConfigForCalls was not called at start-up');
  return callsConfig;
}

type Actor = Pick<Caller, 'userId' | 'email'> | null;

/** A payslip's stored lines as the call reads them (computed, complementary or typed alike). */
const owed = (lines: Array<Record<string, string | null>> | null): OwedLine[] => (lines ?? []) as unknown as OwedLine[];

/**
 * Brings the month's calls in line with its published payslips, in the change's transaction
 * (a validation, a typed payslip, a cancellation). The payslips published since the last
 * revision are counted in the month's unpaid call; a cancelled one is taken out of the unpaid
 * call that counted it, or, when a paid call counted it, counted out in the unpaid call. With no
 * unpaid call, a new one is numbered: the month's first, or a complementary one naming the
 * first (a credit when it only counts out). Each call's lines are then recomputed from the
 * payslips it covers, so that at every commit the month's calls add up to what its published
 * payslips owe, organism by organism. Answers the call that took the change (null: nothing to
 * call, e.g. a payslip that owes nothing in a month without a call).
 */
export async function reviseContributionCalls(change: Change, caller: Actor, orgId: string, period: string): Promise<ContributionCallView | null> {
  const trx = change.trx;
  await repo.lockMonth(trx, orgId, period);
  const calls = await repo.lockMonthCalls(trx, orgId, period);
  const cover = await repo.coverOf(
    trx,
    calls.map((c) => c.id),
  );
  const payslips = await repo.monthPayslips(trx, orgId, period);
  const countedIn = new Map(cover.filter((c) => c.effect === 'publie').map((c) => [c.payslip_id, c.call_id]));
  const countedOut = new Set(cover.filter((c) => c.effect === 'annule').map((c) => c.payslip_id));
  const callById = new Map(calls.map((c) => [c.id, c]));
  const added = payslips.filter((p) => p.status === 'publie' && !countedIn.has(p.id)).map((p) => p.id);
  const cancelled = payslips.filter((p) => p.status === 'annule' && countedIn.has(p.id) && !countedOut.has(p.id)).map((p) => p.id);
  if (added.length === 0 && cancelled.length === 0) return null;

  const unpaid = (id: string) => callById.get(id)?.status === 'a_payer';
  const dropped = cancelled.filter((id) => unpaid(countedIn.get(id)!));
  const withdrawn = cancelled.filter((id) => !unpaid(countedIn.get(id)!));
  const touched = new Map<string, { added: number; removed: number }>();
  const touch = (id: string, what: 'added' | 'removed', n: number) => {
    const t = touched.get(id) ?? { added: 0, removed: 0 };
    t[what] += n;
    touched.set(id, t);
  };
  for (const id of dropped) touch(countedIn.get(id)!, 'removed', 1);
  await repo.uncover(trx, dropped);

  let target = [...calls].reverse().find((c) => c.status === 'a_payer')?.id ?? null;
  let created = false;
  if (added.length > 0 || withdrawn.length > 0) {
    if (!target) {
      const effect = contributionLines([
        ...(await repo.payslipLines(trx, added)).map(owed),
        ...(await repo.payslipLines(trx, withdrawn)).map((l) => withdrawnLines(owed(l))),
      ]);
      if (effect.length > 0) {
        const first = calls[0]?.id ?? null;
        target = await insertCall(change, { org_id: orgId, period, due_date: contributionDueDate(period), lines: [], total: '0.00' as Money }, 'paie', first);
        created = true;
      }
    }
    if (target) {
      await repo.cover(trx, orgId, target, added, 'publie');
      await repo.cover(trx, orgId, target, withdrawn, 'annule');
      touch(target, 'added', added.length);
      touch(target, 'removed', withdrawn.length);
    }
  }

  const org = touched.size > 0 ? await repo.orgRecipients(trx, orgId) : null;
  for (const [id, counts] of touched) {
    const covered = await repo.coveredLines(trx, id);
    const lines = contributionLines(covered.map((c) => (c.effect === 'annule' ? withdrawnLines(owed(c.lines)) : owed(c.lines))));
    const total = sumMoney(lines.map((l) => l.amount));
    await repo.setCallLines(trx, id, lines, total);
    const row = await repo.findContributionCall(trx, id);
    const before = created && id === target ? null : moneyFromDb(callById.get(id)!.total);
    await change.event({
      org_id: orgId,
      action: before === null ? 'contribution_call.created' : 'contribution_call.revised',
      subject_type: 'contribution_call',
      subject_id: id,
      ...actorOf(caller),
      details: {
        number: row.number,
        origin: 'paie',
        period,
        total,
        ...(before === null ? { first_call: row.first_call_number ?? null } : { total_before: before }),
        payslips_added: counts.added,
        payslips_removed: counts.removed,
      },
    });
    // An organization told of the call is told of its new total; one not told yet learns it from the notification.
    const notified = callById.get(id)?.notified_at ?? null;
    if (before !== null && notified !== null && org && org.email_notifs.length > 0 && total !== before) {
      await change.mail(
        await contributionCallMail(
          trx,
          configForCalls(),
          {
            ...row,
            first_call_number: row.first_call_number ?? null,
            org_name: org.name,
            email_notifs: org.email_notifs,
            email_notifs_cc: org.email_notifs_cc,
          },
          { before, added: counts.added, removed: counts.removed },
        ),
      );
    }
  }
  return target ? callOf(await repo.findContributionCall(trx, target)) : null;
}
