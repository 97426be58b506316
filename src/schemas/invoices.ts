/** Schemas of invoices and contribution calls. */
import { Type } from '@sinclair/typebox';
import { ListQuery, Page } from '../http/list.ts';
import { MoneyInput, MoneyString } from '../money/money.ts';

/** Left loose for the validator: the service answers MODULES 1's codes field by field. */
const Loose = (description: string) => Type.Optional(Type.Unsafe<unknown>({ description }));

export const InvoiceLineInput = Type.Object({
  label: Loose('what is invoiced (1 to 300 characters)'),
  quantity: Loose('a positive number, three decimals at most'),
  unit_price: Type.Optional(MoneyInput),
  vat_rate: Loose('a percentage: "20.00", 5.5, 0'),
});

export const BulkCreateBody = Type.Object({
  invoice_type: Loose('paie_mensuelle, frais_ouverture or prestation'),
  payment_method: Loose('prelevement or virement'),
  period_label: Loose('e.g. "novembre 2026"; may be empty'),
  issue_date: Loose('YYYY-MM-DD; default today (Europe/Paris); at most 5 days after today (400 invalid_issue_date), never before the last invoice issued (409 issue_date_before_last)'),
  due_date: Loose('YYYY-MM-DD; default 30 days after issue_date'),
  invoices: Type.Optional(
    Type.Unsafe<unknown>({
      description: '1 to 5,000 invoices: [{ org_id, lines: [{ label, quantity, unit_price, vat_rate }] }]',
      type: 'array',
      items: Type.Object({ org_id: Loose('the organization invoiced'), lines: Loose('1 to 100 lines') }),
    }),
  ),
});

export const CreatedInvoice = Type.Object({ id: Type.String(), number: Type.String({ description: 'F-YYYY-NNNNNN' }), org_id: Type.String(), total_ttc: MoneyString });
export const BulkCreated = Type.Object({ created: Type.Array(CreatedInvoice) });
/** 409 `issue_date_before_last`: the invoice the series must not precede. */
export const IssueDateBeforeLast = Type.Object({
  error: Type.String(),
  message: Type.Optional(Type.String()),
  last_number: Type.Optional(Type.String()),
  last_issue_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
});

export const InvoiceLine = Type.Object({
  label: Type.String(),
  quantity: Type.String({ description: 'decimal string' }),
  unit_price: MoneyString,
  vat_rate: Type.String({ description: 'percentage, two decimals' }),
});

const invoiceProperties = {
  id: Type.String(),
  number: Type.String({ description: 'F-YYYY-NNNNNN (an invoice) or A-YYYY-NNNNNN (a credit note)' }),
  kind: Type.String({ description: 'Facture or avoir (a credit note)' }),
  credited_invoice: Type.Union([Type.Object({ id: Type.String(), number: Type.String(), issue_date: Type.String() }), Type.Null()], {
    description: 'a credit note: the invoice it credits; null for an invoice',
  }),
  credit_reason: Type.Union([Type.String(), Type.Null()], { description: "a credit note's reason; null for an invoice" }),
  org_id: Type.String(),
  org_name: Type.String(),
  invoice_type: Type.String({ description: 'paie_mensuelle, frais_ouverture or prestation' }),
  payment_method: Type.String({ description: 'prelevement or virement' }),
  period_label: Type.String(),
  issue_date: Type.String(),
  due_date: Type.String(),
  lines: Type.Array(InvoiceLine),
  total_ht: MoneyString,
  total_vat: MoneyString,
  total_ttc: MoneyString,
  notified: Type.Boolean(),
  notified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
};

export const Invoice = Type.Object(invoiceProperties);
export const InvoiceList = Page(Invoice);

export const StaffInvoice = Type.Object({
  ...invoiceProperties,
  organization: Type.Object({
    id: Type.String(),
    name: Type.String(),
    structure_api: Type.Union([Type.String(), Type.Null()]),
    email_notifs: Type.Array(Type.String()),
    email_notifs_cc: Type.Array(Type.String()),
  }),
});

export const InvoiceListQuery = Type.Object({
  ...ListQuery,
  notified: Type.Optional(Type.String()),
  invoice_type: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String({ description: 'facture or avoir' })),
});
export const StaffInvoiceListQuery = Type.Object({ ...InvoiceListQuery.properties, org_id: Type.Optional(Type.String()) });

/** Issue 37's CSV exports: a list's filters (every page of it) and the month. */
const ExportPeriod = Type.Optional(Type.String({ description: 'YYYY-MM: only that month (invoices: issued that month)' }));
export const InvoiceExportQuery = Type.Object({
  notified: InvoiceListQuery.properties.notified,
  invoice_type: InvoiceListQuery.properties.invoice_type,
  kind: InvoiceListQuery.properties.kind,
  period: ExportPeriod,
});
export const StaffInvoiceExportQuery = Type.Object({ ...InvoiceExportQuery.properties, org_id: Type.Optional(Type.String()) });

export const BulkNotifyBody = Type.Object({
  // Untyped for the validator, which would coerce "x" to ["x"]: the service answers invalid_invoice_ids.
  invoice_ids: Type.Optional(Type.Unsafe<unknown>({ description: 'an array of 1 to 5,000 invoice ids' })),
  force: Type.Optional(Type.Unsafe<unknown>({ description: 'notify again invoices already notified (default false)' })),
});

export const BulkNotified = Type.Object({
  notified: Type.Array(Type.String()),
  waiting: Type.Array(Type.String(), { description: 'invoices whose Factur-X document is still being made: their e-mail leaves once it exists' }),
  skipped: Type.Array(Type.Object({ id: Type.String(), reason: Type.String({ description: 'not_found, no_recipient or already_notified' }) })),
});

/** `POST /api/staff/facturation/{id}/avoir`. */
export const CreditNoteBody = Type.Object({
  reason: Loose('why the invoice is credited (1 to 300 characters)'),
  lines: Type.Optional(
    Type.Unsafe<unknown>({ description: 'the lines credited, as an invoice\'s (default: every line of the invoice)', type: 'array', items: InvoiceLineInput }),
  ),
});
export const CreatedCreditNote = Type.Object({
  id: Type.String(),
  number: Type.String({ description: 'A-YYYY-NNNNNN' }),
  org_id: Type.String(),
  total_ttc: MoneyString,
  credited_invoice_id: Type.String(),
});
/** 409 `credit_exceeds_invoice`: what may still be credited. */
export const CreditExceedsInvoice = Type.Object({
  error: Type.String(),
  message: Type.Optional(Type.String()),
  invoice_number: Type.Optional(Type.String()),
  remaining_ttc: Type.Optional(Type.String()),
  missing: Type.Optional(Type.Array(Type.String())),
});

/** 400 of a credit note: `credit_exceeds_rate` says which rate, and what may still be credited at it (HT). */
export const CreditNoteRefused = Type.Object({
  error: Type.String(),
  message: Type.Optional(Type.String()),
  field: Type.Optional(Type.String()),
  vat_rate: Type.Optional(Type.String()),
  remaining_ht: Type.Optional(Type.String()),
});

export const PdfLink = Type.Object({ url: Type.String(), expires_at: Type.String({ format: 'date-time' }) });

// ---- Contribution calls.

export const ContributionLineInput = Type.Object({ organism: Loose('URSSAF, AUDIENS, CONGES_SPECTACLES, FRANCE_TRAVAIL, AFDAS…'), amount: Type.Optional(MoneyInput) });

export const ContributionCallBody = Type.Object({
  org_id: Loose('the organization called'),
  period: Loose('YYYY-MM'),
  due_date: Loose('YYYY-MM-DD'),
  lines: Type.Optional(Type.Unsafe<unknown>({ description: '1 to 50 lines { organism, amount }', type: 'array', items: ContributionLineInput })),
});

export const ContributionCall = Type.Object({
  id: Type.String(),
  org_id: Type.String(),
  number: Type.String({ description: 'AC-YYYY-NNNNNN: the reference to put on the transfer' }),
  origin: Type.String({ description: "paie (made and revised from the month's published payslips) or saisi (typed by staff)" }),
  first_call_number: Type.Union([Type.String(), Type.Null()], { description: "a complementary call: the number of the month's first call" }),
  period: Type.String(),
  due_date: Type.String(),
  total: MoneyString,
  lines: Type.Array(Type.Object({ organism: Type.String(), amount: MoneyString })),
  status: Type.String({ description: 'a_payer or paye' }),
  payslips_counted_in: Type.Integer({ description: 'published payslips the call counts' }),
  payslips_counted_out: Type.Integer({ description: 'payslips cancelled after a paid call counted them, counted out here' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time', description: 'last revision' }),
});

export const ContributionCallList = Page(ContributionCall);
export const ContributionListQuery = Type.Object({ ...ListQuery, period: Type.Optional(Type.String({ description: 'YYYY-MM' })) });

// ---- Issue 36: the staff's contribution calls.

export const StaffContributionCall = Type.Object({
  ...ContributionCall.properties,
  org_name: Type.String(),
  notified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when the organization was last told by e-mail' }),
  paid_date: Type.Union([Type.String({ description: 'YYYY-MM-DD' }), Type.Null()], { description: 'the day it was paid (status paye)' }),
});
export const StaffContributionCallList = Page(StaffContributionCall);
export const StaffContributionListQuery = Type.Object({
  ...ContributionListQuery.properties,
  org_id: Type.Optional(Type.String()),
  status: Type.Optional(Type.String({ description: 'a_payer or paye' })),
});
export const ContributionExportQuery = Type.Object({ period: ContributionListQuery.properties.period });
export const StaffContributionExportQuery = Type.Object({
  period: StaffContributionListQuery.properties.period,
  org_id: StaffContributionListQuery.properties.org_id,
  status: StaffContributionListQuery.properties.status,
});
export const ContributionPaidBody = Type.Object({
  paid_date: Loose('YYYY-MM-DD, today or before (default today, Europe/Paris); 400 invalid_paid_date otherwise'),
});
