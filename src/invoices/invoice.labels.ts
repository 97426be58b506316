/** The invoices module's words, one wording for its pages, its PDF and its e-mails. */
import type { InvoiceType, PaymentMethod } from '../db/schema.ts';
import { labelOf } from '../format/labels.ts';

/** MODULES 6 `invoice_type`. */
export const INVOICE_TYPE_LABELS: Record<InvoiceType, string> = {
  paie_mensuelle: 'Paie mensuelle',
  frais_ouverture: "Frais d'ouverture",
  prestation: 'Prestation',
};

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  prelevement: 'Prélèvement SEPA',
  virement: 'Virement bancaire',
};

export const invoiceTypeLabel = (type: string) => labelOf(INVOICE_TYPE_LABELS, type);
