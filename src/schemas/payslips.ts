/** Schemas of the payslips endpoints. */
import { Type } from '@sinclair/typebox';
import { ListQuery, Page } from '../http/list.ts';
import { MoneyInput, MoneyString } from '../money/money.ts';
import { Checked, CheckedMoney, CheckedPeriod, UUID_SCHEMA_PATTERN } from './fields.ts';

const EmployeeName = Type.Object({ first_name: Type.String(), last_name: Type.String() });
const NullableMoney = Type.Union([MoneyString, Type.Null()]);

/** Contracts one payslip pays. */
export const MAX_PAYSLIP_CONTRACTS = 100;
/** Organisms of a payslip made elsewhere. */
export const MAX_TYPED_LINES = 20;
export const TYPED_ORGANISM_MAX = 100;

const invalidContractIds = { code: 'invalid_contract_ids', message: 'contract_ids doit être une liste de contrats de ce salarié, dans cette organisation.' };

/** An id of `contract_ids`. */
export const PayslipContractId = Checked(Type.String({ pattern: UUID_SCHEMA_PATTERN }), invalidContractIds);

/** A line of `contributions`: any value, each field checked by the rules at its turn. */
export const TypedContributionInput = Type.Object({
  organism: Type.Optional(
    Checked(
      Type.String({
        maxLength: TYPED_ORGANISM_MAX,
        'x-text': 'line',
        description: 'as a contribution call names it (1 to 100 characters, trimmed), each organism once',
      }),
      {
        code: 'invalid_organism',
        message: "L'organisme (une fois chacun) n'est pas valide.",
      },
    ),
  ),
  employee_amount: Type.Optional(CheckedMoney),
  employer_amount: Type.Optional(CheckedMoney),
});

// Checked by the rules, in their order: a missing field first, then its schema.
export const PayslipBody = Type.Object({
  org_id: Type.Optional(Type.String({ maxLength: 100 })),
  employee_id: Type.Optional(Type.String({ maxLength: 100 })),
  period: Type.Optional(CheckedPeriod),
  gross: Type.Optional(MoneyInput),
  net_to_pay: Type.Optional(MoneyInput),
  contract_ids: Type.Optional(
    Checked(
      Type.Array(PayslipContractId, { maxItems: MAX_PAYSLIP_CONTRACTS, description: "ids of the employee's contracts this payslip pays (100 at most)" }),
      invalidContractIds,
    ),
  ),
  contributions: Type.Optional(
    Checked(
      Type.Array(TypedContributionInput, {
        minItems: 1,
        maxItems: MAX_TYPED_LINES,
        description:
          "the contributions of a payslip made elsewhere, so that the month's contribution call counts them: 1 to 20 organisms, each once; amounts default to 0",
      }),
      { code: 'invalid_contributions', message: `Les cotisations (de 1 à ${MAX_TYPED_LINES} organismes) n'est pas valide.` },
    ),
  ),
});

export const Payslip = Type.Object({
  id: Type.String(),
  org_id: Type.String(),
  employee_id: Type.String(),
  employee: EmployeeName,
  period: Type.String({ description: 'YYYY-MM' }),
  gross: MoneyString,
  net_to_pay: MoneyString,
  contract_ids: Type.Array(Type.String()),
  has_pdf: Type.Boolean(),
  status: Type.String({ description: 'publie or annule' }),
  transfer_status: Type.Union([Type.String({ description: 'genere or execute' }), Type.Null()]),
  source: Type.String({ description: 'calcule (the payroll run) or saisi (typed in)' }),
  kind: Type.String({ description: "normal, or complementaire: the difference paid after a published month's contract changed" }),
  complements_id: Type.Union([Type.String({ description: "a complementary payslip's original" }), Type.Null()]),
  model_version: Type.Union([Type.String({ description: "the model and the service's overlay, e.g. modele-social@11.1.0+spectacle.1" }), Type.Null()]),
  employee_contributions: NullableMoney,
  employer_contributions: NullableMoney,
  net_before_tax: NullableMoney,
  net_taxable: NullableMoney,
  net_social: NullableMoney,
  pas_rate: Type.Union([Type.String({ description: 'the withholding rate used, a percentage' }), Type.Null()]),
  pas_amount: NullableMoney,
  employer_cost: NullableMoney,
  created_at: Type.String({ format: 'date-time' }),
});

const Rate = Type.Union([Type.String({ description: 'a percentage, e.g. "6.9"' }), Type.Null()]);
export const PayslipLine = Type.Object({
  code: Type.String({ description: "the model's rule name" }),
  label: Type.String(),
  heading: Type.String(),
  organism: Type.String(),
  base: MoneyString,
  employee_rate: Rate,
  employee_amount: MoneyString,
  employer_rate: Rate,
  employer_amount: MoneyString,
});

/** A payslip with its lines; the staff's also with the situation given to the model. */
export const PayslipDetail = Type.Composite([
  Payslip,
  Type.Object({
    lines: Type.Array(PayslipLine),
    situation: Type.Optional(Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()])),
  }),
]);

export const PayslipList = Page(Payslip);

export const PayslipListQuery = Type.Object({
  ...ListQuery,
  period: Type.Optional(Type.String({ description: 'YYYY-MM' })),
  employee_id: Type.Optional(Type.String()),
});

/** The CSV exports: the list's filters, every page; the staff's is a month's. */
export const PayslipExportQuery = Type.Object({ period: PayslipListQuery.properties.period, employee_id: PayslipListQuery.properties.employee_id });
export const StaffPayslipExportQuery = Type.Object({
  period: Type.Optional(Type.String({ description: 'YYYY-MM, required: 400 missing_period without it' })),
  org_id: Type.Optional(Type.String()),
});

export const AvailablePayslip = Type.Object({
  id: Type.String(),
  org_id: Type.String(),
  org_name: Type.String(),
  employee_id: Type.String(),
  employee: EmployeeName,
  iban_last4: Type.String(),
  period: Type.String(),
  net_to_pay: MoneyString,
});

export const AvailableList = Page(AvailablePayslip);

export const AvailableQuery = Type.Object({
  ...ListQuery,
  org_id: Type.Optional(Type.String()),
  period: Type.Optional(Type.String({ description: 'YYYY-MM' })),
});

export const SignedUrl = Type.Object({ url: Type.String(), expires_at: Type.String({ format: 'date-time' }) });

/** 409 of payslips: `payslip_exists` names the live payslip, `payslip_in_transfer` the batch holding it. */
export const PayslipConflictBody = Type.Object({
  error: Type.String(),
  message: Type.Optional(Type.String()),
  payslip_id: Type.Optional(
    Type.String({
      description:
        'payslip_exists: the live payslip for this employee, period and contracts; payslip_has_complement: the complementary payslip to cancel first',
    }),
  ),
  transfer_id: Type.Optional(Type.String({ description: 'payslip_in_transfer: the batch that holds the payslip' })),
});
