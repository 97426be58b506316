/**
 * The rules of salary transfers as pure functions: the batch request, the status
 * changes, the batch reference. (The text a SEPA file may carry: `format/sepa.ts`.)
 */
import type { TransferStatus } from '../db/schema.ts';
import { fieldErrors } from '../http/errors.ts';
import { addDays, parseIsoDate } from '../format/calendar.ts';
import { formatDateFr, todayInFrance } from '../format/french.ts';
import { isSepaIban } from '../format/sepa.ts';
import { isValidIBAN } from 'ibantools';
import { compareMoney, MAX_PAYSLIP_AMOUNT, moneyFromDb } from '../money/money.ts';
import { MAX_BATCH_SIZE, transferErrors } from './transfer.errors.ts';

export const TRANSFER_STATUSES = ['genere', 'execute', 'annule'] as const satisfies readonly TransferStatus[];

/**
 * `payslip_ids`: a non-empty list of strings, at most `MAX_BATCH_SIZE`. Repeats count once (a
 * payslip is paid once). Ids are kept as given, for the refusal's `payslip_ids`.
 */
export function parsePayslipIds(raw: unknown): string[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) throw fieldErrors.missing('payslip_ids', 'La liste des bulletins');
  if (!Array.isArray(raw) || raw.length > MAX_BATCH_SIZE || !raw.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 100)) {
    throw transferErrors.invalidPayslipIds();
  }
  const seen = new Set<string>();
  const ids: string[] = [];
  for (const id of raw as string[]) {
    const key = id.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      ids.push(id);
    }
  }
  return ids;
}

/** `execution_date`: a date, today (Europe/Paris) or later, within a year: a bank refuses a past one. */
export function parseExecutionDate(raw: unknown, today: string = todayInFrance()): string {
  if (raw === undefined || raw === null || raw === '') throw fieldErrors.missing('execution_date', "La date d'exécution");
  const date = parseIsoDate(raw);
  if (!date || date < today || date > addDays(today, 366)) throw transferErrors.invalidExecutionDate();
  return date;
}

/**
 * `POST …/executed`: from `genere` only, and not before the batch's execution date (Paris): a
 * bank has not executed a transfer it was asked to make later (400 `execution_date_in_future`).
 */
export function statusAfterExecuted(status: TransferStatus, executionDate: string, today: string = todayInFrance()): TransferStatus {
  if (status === 'execute') throw transferErrors.executed();
  if (status === 'annule') throw transferErrors.cancelled();
  if (executionDate > today) throw transferErrors.executionDateInFuture(formatDateFr(executionDate));
  return 'execute';
}

/** `POST …/cancel`: from `genere` only; an executed batch is money gone (409 `transfer_executed`). */
export function statusAfterCancel(status: TransferStatus): TransferStatus {
  if (status === 'execute') throw transferErrors.executed();
  if (status === 'annule') throw transferErrors.cancelled();
  return 'annule';
}

/** @example formatTransferReference(2027, 3) // 'VIR-2027-000003' */
export function formatTransferReference(year: number, sequence: number): string {
  return `VIR-${year}-${String(sequence).padStart(6, '0')}`;
}

/**
 * Why a published payslip in no live batch cannot be paid by transfer (the rule of docs/payslips-transfers.md, that
 * `availableWhere` applies in SQL), the first that holds in the order staff fix them; null when
 * it can be paid.
 */
export type UnpayableReason = 'own_salaries' | 'net_zero' | 'net_too_large' | 'no_iban' | 'invalid_iban' | 'iban_outside_sepa';

export function unpayableReason(p: { virements_salaires: string; iban: string | null; net_to_pay: string }): UnpayableReason | null {
  if (p.virements_salaires !== 'Odentas') return 'own_salaries';
  if (!(Number(p.net_to_pay) > 0)) return 'net_zero';
  // One SEPA credit transfer carries at most this much: a bank file cannot hold more.
  if (compareMoney(moneyFromDb(p.net_to_pay), MAX_PAYSLIP_AMOUNT) > 0) return 'net_too_large';
  if (!p.iban) return 'no_iban';
  if (!isValidIBAN(p.iban)) return 'invalid_iban';
  if (!isSepaIban(p.iban)) return 'iban_outside_sepa';
  return null;
}

/** The French words of each reason, as the transfers page shows them. */
export const UNPAYABLE_LABELS: Record<UnpayableReason, string> = {
  own_salaries: "L'organisation paie elle-même ses salaires",
  net_zero: 'Net à payer nul',
  net_too_large: 'Net à payer supérieur à 999 999 999,99 €, le plus grand montant d\u2019un virement SEPA',
  no_iban: 'Aucun IBAN pour ce salarié',
  invalid_iban: 'IBAN invalide (clé de contrôle fausse)',
  iban_outside_sepa: 'IBAN hors de la zone SEPA',
};
