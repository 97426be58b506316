/** Schemas of invoices and contribution calls. */
import { Type } from '@sinclair/typebox';
import { ListQuery, Page } from '../http/list.ts';
import { MoneyString } from '../money/money.ts';
import type { InvoiceType, PaymentMethod } from '../db/schema.ts';
import { Checked, CheckedMoney, CheckedPeriod, UUID_SCHEMA_PATTERN } from './fields.ts';

/** docs/invoices.md: 1 to 5,000 invoices per bulk creation (and per bulk notification). */
export const MAX_BULK = 5000;
/** Lines per invoice. */
export const MAX_LINES = 100;
export const LABEL_MAX = 300;
export const PERIOD_LABEL_MAX = 100;
export const CREDIT_REASON_MAX = 300;
export const INVOICE_TYPES = ['paie_mensuelle', 'frais_ouverture', 'prestation'] as const satisfies readonly InvoiceType[];
export const PAYMENT_METHODS = ['prelevement', 'virement'] as const satisfies readonly PaymentMethod[];

/** '5000' as '5 000' (a no-break space), as the refusals print it. */
const frenchCount = (count: number) => count.toLocaleString('fr-FR').replace(/\s/g, '\u00a0');
const invalid = (field: string, label: string) => ({ code: `invalid_${field}`, message: `${label} n'est pas valide.` });
const decimal = (kind: 'quantity' | 'rate', description: string) => Type.Union([Type.String(), Type.Number()], { 'x-decimal': kind, description });

/** A date of an invoice or a call (the rules' `invalid_date`). */
export const IsoDate = (description: string) =>
  Checked(Type.String({ format: 'date', description }), { code: 'invalid_date', message: 'Date invalide : format AAAA-MM-JJ attendu.' });

// Each field is checked by the rules, in their order: a missing one first, then its schema.
export const InvoiceLineInput = Type.Object({
  label: Type.Optional(
    Checked(
      Type.String({ maxLength: LABEL_MAX, 'x-text': 'line', description: 'what is invoiced (1 to 300 characters, trimmed)' }),
      invalid('label', 'Le libellé'),
    ),
  ),
  quantity: Type.Optional(
    Checked(decimal('quantity', 'a positive number, three decimals at most'), invalid('quantity', 'La quantité (un nombre positif, trois décimales au plus)')),
  ),
  unit_price: Type.Optional(CheckedMoney),
  vat_rate: Type.Optional(
    Checked(
      decimal('rate', 'a percentage: "20.00", 5.5, 0 (0 to 100, two decimals at most)'),
      invalid('vat_rate', 'Le taux de TVA (de 0 à 100, deux décimales au plus)'),
    ),
  ),
});

/** The lines of one invoice of a bulk. */
export const InvoiceLines = Checked(
  Type.Array(InvoiceLineInput, { maxItems: MAX_LINES, description: '1 to 100 lines' }),
  invalid('lines', `La liste des lignes (${MAX_LINES} au plus)`),
);

/** The organization of an invoice of a bulk: one that cannot exist is `org_not_found`, as an unknown one. */
export const InvoiceOrgId = Checked(Type.String({ pattern: UUID_SCHEMA_PATTERN, description: 'the organization invoiced' }), {
  code: 'org_not_found',
  message: 'Organisation introuvable.',
});

export const InvoiceInput = Type.Object({ org_id: Type.Optional(InvoiceOrgId), lines: Type.Optional(InvoiceLines) });

export const BulkCreateBody = Type.Object({
  invoice_type: Type.Optional(
    Checked(
      Type.Unsafe<InvoiceType>({ type: 'string', enum: [...INVOICE_TYPES] }),
      invalid('invoice_type', 'Le type de facture (paie_mensuelle, frais_ouverture ou prestation)'),
    ),
  ),
  payment_method: Type.Optional(
    Checked(
      Type.Unsafe<PaymentMethod>({ type: 'string', enum: [...PAYMENT_METHODS] }),
      invalid('payment_method', 'Le mode de paiement (prelevement ou virement)'),
    ),
  ),
  period_label: Type.Optional(
    Checked(
      Type.String({ maxLength: PERIOD_LABEL_MAX, 'x-text': 'line', description: 'e.g. "novembre 2026" (100 characters at most, trimmed); may be empty' }),
      invalid('period_label', 'Le libellé de période'),
    ),
  ),
  issue_date: Type.Optional(
    IsoDate(
      'YYYY-MM-DD; default today (Europe/Paris); at most 5 days after today (400 invalid_issue_date), never before the last invoice issued (409 issue_date_before_last)',
    ),
  ),
  due_date: Type.Optional(IsoDate('YYYY-MM-DD; default 30 days after issue_date')),
  // A list of objects is checked at the edge, as before; its length by the rules.
  invoices: Type.Optional(
    Checked(Type.Array(InvoiceInput, { maxItems: MAX_BULK, description: '1 to 5,000 invoices' }), {
      code: 'invalid_invoices',
      message: `De 1 à ${frenchCount(MAX_BULK)} factures par envoi.`,
      edge: ['type', 'items'],
    }),
  ),
});

export const CreatedInvoice = Type.Object({
  id: Type.String(),
  number: Type.String({ description: 'F-YYYY-NNNNNN' }),
  org_id: Type.String(),
  total_ttc: MoneyString,
});
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

/** The CSV exports: a list's filters (every page of it) and the month. */
const ExportPeriod = Type.Optional(Type.String({ description: 'YYYY-MM: only that month (invoices: issued that month)' }));
export const InvoiceExportQuery = Type.Object({
  notified: InvoiceListQuery.properties.notified,
  invoice_type: InvoiceListQuery.properties.invoice_type,
  kind: InvoiceListQuery.properties.kind,
  period: ExportPeriod,
});
export const StaffInvoiceExportQuery = Type.Object({ ...InvoiceExportQuery.properties, org_id: Type.Optional(Type.String()) });

/** An id of a bulk notification. */
export const InvoiceId = Checked(Type.String(), invalid('invoice_ids', 'La liste des factures'));

export const BulkNotifyBody = Type.Object({
  invoice_ids: Type.Optional(
    Checked(Type.Array(InvoiceId, { maxItems: MAX_BULK, description: 'an array of 1 to 5,000 invoice ids' }), {
      code: 'invalid_invoice_ids',
      message: `De 1 à ${frenchCount(MAX_BULK)} factures par envoi.`,
    }),
  ),
  force: Type.Optional(
    Checked(Type.Boolean({ description: 'notify again invoices already notified (default false)' }), invalid('force', 'Le champ force (true ou false)')),
  ),
});

export const BulkNotified = Type.Object({
  notified: Type.Array(Type.String()),
  waiting: Type.Array(Type.String(), { description: 'invoices whose Factur-X document is still being made: their e-mail leaves once it exists' }),
  skipped: Type.Array(Type.Object({ id: Type.String(), reason: Type.String({ description: 'not_found, no_recipient or already_notified' }) })),
});

/** `POST /api/staff/facturation/{id}/avoir`. */
export const CreditNoteBody = Type.Object({
  reason: Type.Optional(
    Checked(Type.String({ maxLength: CREDIT_REASON_MAX, 'x-text': 'line', description: 'why the invoice is credited (1 to 300 characters, trimmed)' }), {
      ...invalid('reason', `Le motif de l'avoir (${CREDIT_REASON_MAX} caractères au plus)`),
      messages: { type: invalid('reason', "Le motif de l'avoir").message },
    }),
  ),
  lines: Type.Optional(
    Checked(
      Type.Array(InvoiceLineInput, {
        minItems: 1,
        maxItems: MAX_LINES,
        description: "the lines credited, as an invoice's (default: every line of the invoice)",
      }),
      {
        ...invalid('lines', `La liste des lignes (de 1 à ${MAX_LINES})`),
        edge: ['type', 'items'],
      },
    ),
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

/** Lines of a contribution call. */
export const MAX_CALL_LINES = 50;
export const ORGANISM_MAX = 100;

export const ContributionLineInput = Type.Object({
  organism: Type.Optional(
    Checked(
      Type.String({
        maxLength: ORGANISM_MAX,
        'x-text': 'line',
        description: 'URSSAF, AUDIENS, CONGES_SPECTACLES, FRANCE_TRAVAIL, AFDAS… (any name of 1 to 100 characters, trimmed)',
      }),
      invalid('organism', "L'organisme"),
    ),
  ),
  amount: Type.Optional(CheckedMoney),
});

export const ContributionCallBody = Type.Object({
  org_id: Type.Optional(
    Checked(Type.String({ pattern: UUID_SCHEMA_PATTERN, description: 'the organization called' }), {
      code: 'org_not_found',
      message: 'Organisation introuvable.',
    }),
  ),
  period: Type.Optional(CheckedPeriod),
  due_date: Type.Optional(IsoDate('YYYY-MM-DD')),
  lines: Type.Optional(
    Checked(Type.Array(ContributionLineInput, { maxItems: MAX_CALL_LINES, description: '1 to 50 lines { organism, amount }' }), {
      ...invalid('lines', `La liste des lignes (${MAX_CALL_LINES} au plus)`),
      edge: ['type', 'items'],
    }),
  ),
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

// ---- The staff's contribution calls.

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
  paid_date: Type.Optional(
    Checked(Type.String({ format: 'date', description: 'YYYY-MM-DD, today or before (default today, Europe/Paris); 400 invalid_paid_date otherwise' }), {
      code: 'invalid_paid_date',
      message: 'Date de paiement invalide : format AAAA-MM-JJ attendu.',
    }),
  ),
});
