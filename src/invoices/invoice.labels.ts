/** The invoices module's words, one wording for its pages, its PDF and its e-mails. */
import type { InvoiceKind, InvoiceType, PaymentMethod } from '../db/schema.ts';
import { labelOf } from '../format/labels.ts';

/** `invoice_type`. */
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

/** What a document of the list is: its invoice's type, or for a credit note "Avoir sur F-…". */
export function documentLabel(document: { kind: InvoiceKind; invoice_type: string; credited_invoice: { number: string } | null }): string {
  return document.kind === 'avoir' ? `Avoir sur ${document.credited_invoice?.number ?? 'une facture'}` : invoiceTypeLabel(document.invoice_type);
}

/** An amount of a listed document as the CSV signs it: a credit note's is owed to the client, negative. */
export function signedAmount<T extends string>(document: { kind: InvoiceKind }, amount: T): T {
  return (document.kind === 'avoir' && amount !== '0.00' ? `-${amount}` : amount) as T;
}

/** "de la facture F-…" / "de l'avoir A-…", for the download buttons. */
export function ofDocument(document: { kind: InvoiceKind; number: string }): string {
  return document.kind === 'avoir' ? `de l'avoir ${document.number}` : `de la facture ${document.number}`;
}
