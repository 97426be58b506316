/**
 * The rules of contracts as pure functions: what a contract of each kind must
 * hold, its salaries by date, its total, its number, which status allows which change, and
 * the folded text the grid searches. The service applies them; tests call them directly.
 */
import type { ContractKind, ContractStatus, DateNature } from '../db/schema.ts';
import { AppError, fieldErrors } from '../http/errors.ts';
import { compareMoney, isStorableMoney, MAX_PAYSLIP_AMOUNT, parseQuantity, requireMoney, sumMoney, type Money } from '../money/money.ts';
import { contractErrors, withField } from './contract.errors.ts';
import { formatSeriesNumber } from '../db/number-series.ts';
import { parseIsoDate } from '../format/calendar.ts';

export const CONTRACT_KINDS = ['CDDU', 'CDD', 'CDI'] as const satisfies readonly ContractKind[];
export const CONTRACT_STATUSES = ['brouillon', 'a_signer', 'signe', 'annule'] as const satisfies readonly ContractStatus[];
export const DATE_NATURES = ['representation', 'repetition', 'service', 'heures'] as const satisfies readonly DateNature[];

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

// ---------------------------------------------------------------------------------------
// Numbers: C-YYYY-NNNNNN, YYYY the year of creation.

/**
 * @example formatContractNumber(2027, 42) // 'C-2027-000042'
 */
export function formatContractNumber(year: number, sequence: number): string {
  return formatSeriesNumber('C', year, sequence);
}

// ---------------------------------------------------------------------------------------
// Search: case- and accent-insensitive, the same on PostgreSQL and PGlite, because the
// folding is done here, both for the stored text and for the query.

/**
 * Lower case, without accents or ligatures, spaces collapsed.
 * @example foldForSearch('  Théâtre  de l’Œuvre ') // "theatre de l'oeuvre"
 */
export function foldForSearch(text: string): string {
  return text
    .replace(/[œŒ]/g, 'oe')
    .replace(/[æÆ]/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/[’‘`]/g, "'")
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** What the grid's `q` is matched against: the employee's name, the number and the show. */
export function searchTextOf(contract: { contract_number: string; show_title: string | null; employee: { first_name: string; last_name: string } }): string {
  const { employee } = contract;
  return foldForSearch([employee.first_name, employee.last_name, contract.contract_number, contract.show_title ?? ''].join(' '));
}

/**
 * The words of a query, folded: a contract matches when its search text contains every
 * one ("soleil dupont" finds Jean Dupont's contract for "Le Soleil"). At most 8 words.
 */
export function searchTerms(q: string | undefined): string[] {
  return [
    ...new Set(
      foldForSearch(q ?? '')
        .split(' ')
        .filter(Boolean),
    ),
  ].slice(0, 8);
}

// ---------------------------------------------------------------------------------------
// Dates.

// ---------------------------------------------------------------------------------------
// The contract's fields, by kind.

/** A contract's own fields as stored (after a creation or an edit is applied). */
export interface ContractFields {
  kind: ContractKind;
  job_title: string | null;
  show_title: string | null;
  idcc: string | null;
  start_date: string;
  end_date: string | null;
  monthly_gross: Money | null;
}

/** A body's fields as received (creation or edit): anything, checked by `checkContractFields`. */
export type ContractFieldsInput = Partial<Record<keyof ContractFields, unknown>>;

const LABELS: Record<keyof ContractFields, string> = {
  kind: 'Le type de contrat',
  job_title: "L'emploi",
  show_title: "L'objet (spectacle)",
  idcc: "L'IDCC",
  start_date: 'La date de début',
  end_date: 'La date de fin',
  monthly_gross: 'Le salaire mensuel brut',
};

/** A free text: trimmed, empty as null. */
function optionalText(value: unknown, field: keyof ContractFields): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw fieldErrors.invalid(field, LABELS[field]);
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * A contract's fields, whatever its status: the kind; the show, required for a
 * CDDU; the end date, required for a CDDU or a CDD and at or after the start, absent for a
 * CDI; the monthly gross for a CDD or a CDI only; the IDCC as four digits.
 */
export function checkContractFields(input: ContractFieldsInput): ContractFields {
  if (input.kind === undefined || input.kind === null || input.kind === '') throw fieldErrors.missing('kind', LABELS.kind);
  if (!isOneOf(CONTRACT_KINDS, input.kind)) throw fieldErrors.invalid('kind', LABELS.kind);
  const kind = input.kind;

  if (input.start_date === undefined || input.start_date === null || input.start_date === '') {
    throw fieldErrors.missing('start_date', LABELS.start_date);
  }
  const startDate = parseIsoDate(input.start_date);
  if (!startDate) throw contractErrors.invalidDate('start_date');

  let endDate: string | null = null;
  if (kind === 'CDI') {
    if (input.end_date !== undefined && input.end_date !== null && input.end_date !== '') {
      throw contractErrors.endDateOfCdi();
    }
  } else {
    if (input.end_date === undefined || input.end_date === null || input.end_date === '') {
      throw fieldErrors.missing('end_date', LABELS.end_date);
    }
    endDate = parseIsoDate(input.end_date);
    if (!endDate) throw contractErrors.invalidDate('end_date');
    if (endDate < startDate) throw contractErrors.endBeforeStart();
  }

  const showTitle = optionalText(input.show_title, 'show_title');
  if (kind === 'CDDU' && !showTitle) throw fieldErrors.missing('show_title', LABELS.show_title);

  const idcc = optionalText(input.idcc, 'idcc');
  if (idcc !== null && !/^\d{4}$/.test(idcc)) throw fieldErrors.invalid('idcc', LABELS.idcc);

  let monthlyGross: Money | null = null;
  if (input.monthly_gross !== undefined && input.monthly_gross !== null && input.monthly_gross !== '') {
    // A CDDU is paid by the date (its `dates`), never by the month.
    if (kind === 'CDDU') throw contractErrors.monthlyGrossOfCddu();
    monthlyGross = requireMoney(input.monthly_gross);
    // A month's salary is one payslip, paid by one transfer.
    if (compareMoney(monthlyGross, MAX_PAYSLIP_AMOUNT) > 0) throw withField(contractErrors.amountAbovePayslip(), 'monthly_gross');
  }

  return {
    kind,
    job_title: optionalText(input.job_title, 'job_title'),
    show_title: showTitle,
    idcc,
    start_date: startDate,
    end_date: endDate,
    monthly_gross: monthlyGross,
  };
}

// ---------------------------------------------------------------------------------------
// Salaries by date.

export interface ContractDate {
  date: string;
  nature: DateNature;
  quantity: string;
  amount: Money;
}

/** At most this many dates on one contract (a season of daily performances fits). */
export const MAX_DATES = 400;

/**
 * Each `{ date, nature, quantity, amount }` checked, and each date within the
 * contract's period (from `start_date` to `end_date`, open-ended for a CDI).
 */
export function checkDates(input: unknown, period: { start_date: string; end_date: string | null }): ContractDate[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input) || input.length > MAX_DATES) throw fieldErrors.invalid('dates', 'La liste des dates');
  return input.map((raw: unknown, index): ContractDate => {
    if (raw === null || typeof raw !== 'object') throw fieldErrors.invalid('dates', 'La liste des dates');
    const line = raw as Record<string, unknown>;
    // Each refusal names its line (`field: "dates[2].date"`), for a page to show it there.
    const at = (name: string, error: AppError) => withField(error, `dates[${index}].${name}`);
    if (line.date === undefined || line.date === null || line.date === '') throw at('date', fieldErrors.missing('date', 'La date'));
    const date = parseIsoDate(line.date);
    if (!date) throw contractErrors.invalidDate(`dates[${index}].date`);
    if (date < period.start_date || (period.end_date !== null && date > period.end_date))
      throw contractErrors.dateOutsidePeriod(`dates[${index}].date`, date, period);
    if (line.nature === undefined || line.nature === null || line.nature === '') throw at('nature', fieldErrors.missing('nature', 'La nature'));
    if (!isOneOf(DATE_NATURES, line.nature)) throw at('nature', fieldErrors.invalid('nature', 'La nature'));
    if (line.quantity === undefined || line.quantity === null || line.quantity === '') throw at('quantity', fieldErrors.missing('quantity', 'La quantité'));
    const quantity = parseQuantity(line.quantity);
    if (quantity === null) throw at('quantity', fieldErrors.invalid('quantity', 'La quantité'));
    if (line.amount === undefined || line.amount === null || line.amount === '') throw at('amount', fieldErrors.missing('amount', 'Le montant'));
    let amount: Money;
    try {
      amount = requireMoney(line.amount);
    } catch (error) {
      throw error instanceof AppError ? at('amount', error) : error;
    }
    // A date paid nothing makes no payslip line, and a payslip of such dates a negative net.
    if (amount === '0.00') throw at('amount', contractErrors.dateAmountZero(date));
    if (compareMoney(amount, MAX_PAYSLIP_AMOUNT) > 0) throw at('amount', contractErrors.amountAbovePayslip());
    return { date, nature: line.nature, quantity, amount };
  });
}

/**
 * The sum of the dates' amounts, else the monthly gross (null when neither). A
 * sum past `numeric(12,2)` is refused as an amount would be, and so is a month whose dates
 * add up past what one payslip carries (`MAX_PAYSLIP_AMOUNT`): a month of a CDDU is one
 * payslip, paid by one SEPA transfer.
 */
export function grossTotal(dates: readonly ContractDate[], monthlyGross: Money | null): Money | null {
  if (dates.length === 0) return monthlyGross;
  const byMonth = new Map<string, Money[]>();
  for (const d of dates) byMonth.set(d.date.slice(0, 7), [...(byMonth.get(d.date.slice(0, 7)) ?? []), d.amount]);
  for (const [month, amounts] of byMonth) {
    const total = sumMoney(amounts);
    if (compareMoney(total, MAX_PAYSLIP_AMOUNT) > 0) throw contractErrors.monthAbovePayslip(month, total);
  }
  const total = sumMoney(dates.map((d) => d.amount));
  if (!isStorableMoney(total)) throw contractErrors.totalTooLarge();
  return total;
}

// ---------------------------------------------------------------------------------------
// Status: brouillon → a_signer (submit) → signe (signed PDF); annule from any but signe.

/** The client edits a contract (`PATCH /api/contrats/{id}`) only while it is a draft. */
export function assertEditable(status: ContractStatus): void {
  if (status !== 'brouillon') throw contractErrors.locked();
}

export function statusAfterSubmit(status: ContractStatus): ContractStatus {
  if (status !== 'brouillon') throw contractErrors.locked();
  return 'a_signer';
}

export function statusAfterCancel(status: ContractStatus): ContractStatus {
  if (status === 'signe') throw contractErrors.signed();
  if (status === 'annule') throw contractErrors.cancelled();
  return 'annule';
}

/** Staff edit the salaries by date in any status but `annule`. */
export function assertDatesEditable(status: ContractStatus): void {
  if (status === 'annule') throw contractErrors.cancelled();
}

/** Attaching the signed PDF makes the contract `signe` (a cancelled one stays cancelled). */
export function statusAfterSigning(status: ContractStatus): ContractStatus {
  if (status === 'annule') throw contractErrors.cancelled();
  return 'signe';
}

/** Deleting the signed PDF puts the contract back to `a_signer`. */
export function statusAfterUnsigning(status: ContractStatus): ContractStatus {
  if (status === 'annule') throw contractErrors.cancelled();
  return 'a_signer';
}

// ---------------------------------------------------------------------------------------
// Amendments (avenants): the period extended, new dates within it.

/** What an avenant asks: a new start and/or end, and the dates it adds. */
export interface AmendmentInput {
  start_date?: unknown;
  end_date?: unknown;
  dates?: unknown;
}

export interface Amendment {
  start_date: string;
  end_date: string | null;
  /** The dates the avenant adds (each within the new period). */
  dates: ContractDate[];
}

/**
 * An avenant to `current`: not on a cancelled contract (409 `contract_cancelled`); its start at
 * or before the contract's, its end at or after it (none for a CDI), at least one of them
 * moved (400 `period_not_extended`); its dates within the new period (400 `invalid_date`), and
 * the contract's dates with them at most `MAX_DATES`.
 */
export function checkAmendment(
  current: { kind: ContractKind; status: ContractStatus; start_date: string; end_date: string | null; dateCount: number },
  input: AmendmentInput,
): Amendment {
  if (current.status === 'annule') throw contractErrors.cancelled();
  const given = (value: unknown) => value !== undefined && value !== null && value !== '';
  let startDate = current.start_date;
  if (given(input.start_date)) {
    const parsed = parseIsoDate(input.start_date);
    if (!parsed) throw contractErrors.invalidDate('start_date');
    startDate = parsed;
  }
  let endDate = current.end_date;
  if (given(input.end_date)) {
    if (current.kind === 'CDI') throw contractErrors.endDateOfCdi();
    const parsed = parseIsoDate(input.end_date);
    if (!parsed) throw contractErrors.invalidDate('end_date');
    endDate = parsed;
  }
  if (endDate !== null && endDate < startDate) throw contractErrors.endBeforeStart();
  const earlier = startDate < current.start_date;
  const later = endDate !== null && current.end_date !== null && endDate > current.end_date;
  if (startDate > current.start_date || (endDate !== null && current.end_date !== null && endDate < current.end_date) || (!earlier && !later)) {
    throw contractErrors.periodNotExtended();
  }
  const dates = checkDates(input.dates, { start_date: startDate, end_date: endDate });
  if (current.dateCount + dates.length > MAX_DATES) throw fieldErrors.invalid('dates', 'La liste des dates');
  return { start_date: startDate, end_date: endDate, dates };
}
