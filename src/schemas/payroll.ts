/** Schemas of the payroll run. */
import { Type } from '@sinclair/typebox';
import { MoneyString } from '../money/money.ts';
import { Checked, CheckedPeriod, UUID_SCHEMA_PATTERN } from './fields.ts';

/** Drafts one validation names. */
export const MAX_VALIDATED_IDS = 1000;

const invalidPayslipIds = { code: 'invalid_payslip_ids', message: 'payslip_ids doit être une liste d\u2019identifiants de bulletins (1 000 au plus).' };

/** An id of a draft to validate. */
export const DraftId = Checked(Type.String({ pattern: UUID_SCHEMA_PATTERN }), invalidPayslipIds);

// Checked by the service, in its order: a missing field first, then its schema.
export const PayrollRunBody = Type.Object({
  org_id: Type.Optional(Type.String({ maxLength: 100 })),
  period: Type.Optional(CheckedPeriod),
});

export const PayrollValidateBody = Type.Object({
  org_id: Type.Optional(Type.String({ maxLength: 100 })),
  period: Type.Optional(CheckedPeriod),
  payslip_ids: Type.Optional(
    Checked(
      Type.Array(DraftId, { maxItems: MAX_VALIDATED_IDS, description: 'drafts to validate, 1,000 at most (default: every draft of the period)' }),
      invalidPayslipIds,
    ),
  ),
  payment_date: Type.Optional(
    Checked(
      Type.String({
        format: 'date',
        description:
          "YYYY-MM-DD, the day the salaries are paid, printed on the bulletins: from the period's first day to the last day of the second month after it (else 400 invalid_payment_date); default the period's last Monday to Friday (public holidays are not skipped)",
        examples: ['2027-01-29'],
      }),
      { code: 'invalid_payment_date', message: 'Date de paiement invalide : format AAAA-MM-JJ attendu (ex. 2027-01-29).' },
    ),
  ),
});

export const RunStarted = Type.Object({ run_id: Type.String() });

const RunPayslip = Type.Object({
  id: Type.String(),
  status: Type.String(),
  employee_id: Type.String(),
  employee: Type.Object({ first_name: Type.String(), last_name: Type.String() }),
  contract_id: Type.String(),
  contract_number: Type.String(),
  gross: MoneyString,
  net_before_tax: MoneyString,
  net_to_pay: MoneyString,
  employer_cost: MoneyString,
});

const MonthPayslip = Type.Composite([
  RunPayslip,
  Type.Object({
    kind: Type.String({ description: 'normal, or complementaire: the difference of a published month whose contract changed' }),
    complements_id: Type.Union([Type.String({ description: "a complementary payslip's original" }), Type.Null()]),
  }),
]);

const Skipped = Type.Object({ contract_id: Type.String(), reason: Type.String(), message: Type.Optional(Type.String()) });

export const PayrollMonthQuery = Type.Object({
  org_id: Type.Optional(Type.String({ maxLength: 100 })),
  period: Type.Optional(Type.String({ maxLength: 20, description: 'YYYY-MM' })),
});

export const PayrollMonth = Type.Object({
  org_id: Type.String(),
  period: Type.String(),
  drafts: Type.Array(MonthPayslip, { description: 'the current drafts of the month, whatever run made them' }),
  skipped: Type.Array(Skipped, { description: 'the contracts the last finished run skipped, and why' }),
  last_run: Type.Union([
    Type.Object({
      id: Type.String(),
      status: Type.String({ description: 'en_cours, termine or echoue' }),
      done: Type.Integer(),
      total: Type.Integer(),
      message: Type.Optional(Type.String()),
      created_at: Type.String({ format: 'date-time' }),
      finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
    Type.Null(),
  ]),
});

export const PayrollRun = Type.Object({
  id: Type.String(),
  org_id: Type.String(),
  period: Type.String(),
  status: Type.String({ description: 'en_cours, termine or echoue' }),
  done: Type.Integer(),
  total: Type.Integer(),
  payslips: Type.Array(RunPayslip),
  skipped: Type.Array(Type.Object({ contract_id: Type.String(), reason: Type.String(), message: Type.Optional(Type.String()) })),
  message: Type.Optional(Type.String({ description: 'echoue: why, in French' })),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const Validated = Type.Object({
  published: Type.Array(Type.String()),
  contribution_call_id: Type.Union([Type.String(), Type.Null()], {
    description: "the month's contribution call that counts them (revised, or a new one); null when they owe nothing and the month has no call",
  }),
  payment_date: Type.String({ description: 'YYYY-MM-DD: the day chosen, or the default' }),
});

export const NotDraftBody = Type.Object({
  error: Type.String({ description: 'payslip_not_draft, or payslip_stale: drafts whose contract changed since the computation, or replaced by a new one' }),
  message: Type.Optional(Type.String()),
  payslip_ids: Type.Optional(Type.Array(Type.String())),
  contract_numbers: Type.Optional(Type.Array(Type.String({ description: 'payslip_stale: the contracts that changed' }))),
});
