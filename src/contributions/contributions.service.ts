/**
 * Contribution calls (appels de cotisations, MODULES 6): staff create them for an
 * organization; its COMPTA and administrators read them (`GET /api/cotisations`). Issue 36:
 * staff list every organization's calls, notify one to its organization's addresses by e-mail
 * (through the outbox, like invoices) and mark one paid (`paye`).
 */
import { orgErrors } from '../org/org.errors.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import type { Database } from '../db/database.ts';
import { decodeCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { moneyFromDb } from '../money/money.ts';
import { contributionErrors } from './contribution.errors.ts';
import { parseIsoDate, parsePeriod } from '../format/calendar.ts';
import { formatDateFr, formatEuros, formatPeriodFr, todayInFrance } from '../format/french.ts';
import { fieldErrors } from '../http/errors.ts';
import { isUuid } from '../http/input.ts';
import type { Config } from '../config.ts';
import type { ContributionStatus } from '../db/schema.ts';
import type { OutgoingMail } from '../mail/outbox.ts';
import { contributionCallEmail } from './contribution.mail.ts';
import { organismLabel } from './contribution.labels.ts';
import { checkContributionCall } from './contribution.rules.ts';
import * as repo from './contributions.repository.ts';

type Row = Awaited<ReturnType<typeof repo.insertContributionCall>>;

function callOf(row: Row) {
  return {
    id: row.id,
    org_id: row.org_id,
    period: row.period,
    due_date: row.due_date,
    total: moneyFromDb(row.total),
    lines: row.lines.map((l) => ({ organism: l.organism, amount: moneyFromDb(l.amount) })),
    status: row.status,
    created_at: row.created_at,
  };
}

/** A contribution call in the change's transaction (also used by seed-demo). */
export async function insertNewContributionCall(change: Change, caller: Pick<Caller, 'userId' | 'email'> | null, input: Record<string, unknown>) {
  const call = checkContributionCall(input);
  if (!(await repo.organizationExists(change.trx, call.org_id))) throw orgErrors.orgInBodyNotFound();
  const row = await repo.insertContributionCall(change.trx, call);
  await change.event({
    org_id: call.org_id, action: 'contribution_call.created', subject_type: 'contribution_call', subject_id: row.id, ...actorOf(caller),
    details: { period: call.period, total: call.total },
  });
  return callOf(row);
}

/** `POST /api/staff/cotisations`. */
export function createContributionCall(ctx: ChangeContext, caller: Caller, input: Record<string, unknown>) {
  return applyChange(ctx, (change) => insertNewContributionCall(change, caller, input));
}

/** `GET /api/cotisations`: the organization's calls, newest period first (`?period=` filters). */
export async function listContributionCalls(db: Database, orgId: string, query: { limit?: string; cursor?: string; period?: string }) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  let period: string | null = null;
  if (query.period) {
    period = parsePeriod(query.period);
    if (!period) throw contributionErrors.invalidPeriod();
  }
  const rows = await repo.listContributionCalls(db, orgId, period, cursor, limit);
  const page = keysetPage(rows, limit, (row) => [row.period, row.id]);
  return { items: page.items.map(callOf), next_cursor: page.next_cursor };
}

// ---------------------------------------------------------------------------------------
// Issue 36: the staff's list, the notification and the payment.

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
  let period: string | undefined;
  if (query.period) {
    period = parsePeriod(query.period) ?? undefined;
    if (!period) throw contributionErrors.invalidPeriod();
  }
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

/** The e-mail of a call: To every `email_notifs`, Cc every `email_notifs_cc` (as an invoice's). */
export function contributionCallMail(config: Config, call: LockedCall): OutgoingMail {
  return {
    kind: 'contribution_call',
    to: call.email_notifs,
    cc: call.email_notifs_cc,
    ...contributionCallEmail({
      orgName: call.org_name,
      period: formatPeriodFr(call.period),
      dueDate: formatDateFr(call.due_date),
      total: formatEuros(moneyFromDb(call.total)),
      lines: call.lines.map((line) => ({ organism: organismLabel(line.organism), amount: formatEuros(moneyFromDb(line.amount)) })),
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
    await change.mail(contributionCallMail(ctx.config, call));
    await repo.markNotified(change.trx, call.id);
    await change.event({
      org_id: call.org_id, action: 'contribution_call.notified', subject_type: 'contribution_call', subject_id: call.id, ...actorOf(caller),
      details: { period: call.period, total: moneyFromDb(call.total), to: call.email_notifs, cc: call.email_notifs_cc, again: call.notified_at !== null },
    });
  });
  return readStaffContributionCall(ctx.db, id);
}

/** The day it was paid: today (in France) when absent; never in the future. */
function checkPaidDate(raw: unknown, today: string): string {
  if (raw === undefined || raw === null || raw === '') return today;
  const date = parseIsoDate(raw);
  if (!date) throw contributionErrors.invalidPaidDate();
  if (date > today) throw contributionErrors.paidDateInFuture(today);
  return date;
}

/** `POST /api/staff/cotisations/{id}/paye`: status `paye` with its date; 409 `already_paid`. */
export async function markContributionCallPaid(ctx: ChangeContext, caller: Caller, id: string, body: { paid_date?: unknown }) {
  const paidDate = checkPaidDate(body.paid_date, todayInFrance());
  await applyChange(ctx, async (change) => {
    const call = await lockOrNotFound(change, id);
    if (call.status === 'paye') throw contributionErrors.alreadyPaid(call.paid_date);
    await repo.markPaid(change.trx, call.id, paidDate);
    await change.event({
      org_id: call.org_id, action: 'contribution_call.paid', subject_type: 'contribution_call', subject_id: call.id, ...actorOf(caller),
      details: { period: call.period, total: moneyFromDb(call.total), paid_date: paidDate },
    });
  });
  return readStaffContributionCall(ctx.db, id);
}
