/** Schemas of the salary transfer endpoints. */
import { Type } from '@sinclair/typebox';
import { ListQuery, Page } from '../http/list.ts';
import { MoneyString } from '../money/money.ts';
import { Checked } from './fields.ts';

/** The most payslips one batch takes (a 4 MiB body holds about 100,000 ids; a bank file this size is plenty). */
export const MAX_BATCH_SIZE = 10_000;
/** Longest payslip id taken (a longer one names no payslip). */
const PAYSLIP_ID_MAX = 100;

const invalidPayslipIds = { code: 'invalid_payslip_ids', message: `payslip_ids doit être une liste d'identifiants de bulletins (${MAX_BATCH_SIZE} au plus).` };

/** An id of a batch's payslip, as given: one that is not a UUID is refused as unavailable. */
export const TransferPayslipId = Checked(Type.String({ minLength: 1, maxLength: PAYSLIP_ID_MAX }), invalidPayslipIds);

// Checked by the rules, in their order: a missing field first, then its schema.
export const TransferBody = Type.Object({
  payslip_ids: Type.Optional(
    Checked(
      Type.Array(TransferPayslipId, {
        maxItems: MAX_BATCH_SIZE,
        description: 'the ids of the payslips to pay (one organization), 1 to 10,000',
        examples: [['8b0f…']],
      }),
      invalidPayslipIds,
    ),
  ),
  execution_date: Type.Optional(
    Checked(Type.String({ format: 'date', description: 'YYYY-MM-DD, today or later (Europe/Paris), within 366 days', examples: ['2027-01-28'] }), {
      code: 'invalid_execution_date',
      message: "Date d'exécution invalide : AAAA-MM-JJ, aujourd'hui ou plus tard.",
    }),
  ),
});

const NullableTimestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** A batch as the staff see it. */
export const Transfer = Type.Object({
  id: Type.String(),
  org_id: Type.String(),
  org_name: Type.String(),
  reference: Type.String({ description: 'VIR-YYYY-NNNNNN, the SEPA message id' }),
  execution_date: Type.String(),
  count: Type.Integer(),
  total: MoneyString,
  status: Type.String({ description: 'genere, execute or annule' }),
  created_at: Type.String({ format: 'date-time' }),
  executed_at: NullableTimestamp,
  cancelled_at: NullableTimestamp,
  periods: Type.Array(Type.String(), { description: 'the months the batch pays (YYYY-MM), oldest first' }),
});

export const TransferLine = Type.Object({
  payslip_id: Type.String(),
  creditor_name: Type.String(),
  iban_last4: Type.String(),
  period: Type.String(),
  amount: MoneyString,
});

export const TransferDetail = Type.Object({ ...Transfer.properties, items: Type.Array(TransferLine) });

export const TransferList = Page(Transfer);

export const StaffTransferQuery = Type.Object({
  ...ListQuery,
  org_id: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
});

/** A batch as the organization sees it: never an IBAN. */
export const ClientTransfer = Type.Object({
  id: Type.String(),
  reference: Type.String({ description: 'VIR-YYYY-NNNNNN, as the bank statement shows it' }),
  execution_date: Type.String(),
  periods: Type.Array(Type.String(), { description: 'the months the batch pays (YYYY-MM), oldest first' }),
  count: Type.Integer(),
  total: MoneyString,
  status: Type.String({ description: 'genere, execute or annule' }),
});

export const ClientTransferList = Page(ClientTransfer);
export const ClientTransferQuery = Type.Object({ ...ListQuery });

/** The CSV exports: the list's filters, every page. */
export const StaffTransferExportQuery = Type.Object({ org_id: StaffTransferQuery.properties.org_id, status: StaffTransferQuery.properties.status });
export const ClientTransferExportQuery = Type.Object({});

/**
 * 409 `payslip_unavailable`: the payslips refused, unknown ids included; 409
 * `creditor_name_unwritable`: the payslips whose employee's name a SEPA file cannot write, and
 * those employees; 409 `transfer_amount_too_large` (the SEPA file): the payslips whose line is
 * past what one transfer carries.
 */
export const UnavailableBody = Type.Object({
  error: Type.String(),
  message: Type.Optional(Type.String()),
  payslip_ids: Type.Optional(Type.Array(Type.String())),
  employee_ids: Type.Optional(Type.Array(Type.String())),
  reason: Type.Optional(
    Type.String({ description: 'transfer_file_missing: why the batch has no SEPA file (operator_account_missing, transfer_amount_too_large)' }),
  ),
});
