/**
 * The invoice as a French PDF: seller (the operator, `OPERATOR_*`), buyer (the
 * organization), number, issue and due dates, lines, VAT, totals, and the mentions a French
 * invoice between professionals carries (Code de commerce L. 441-9, L. 441-10, D. 441-5; CGI
 * art. 242 nonies A): SIREN and VAT numbers, payment terms, late-payment penalties, the 40 €
 * recovery indemnity, discount terms. A pure function of the invoice: `renderPdf` lays it out.
 */
import type { OperatorConfig } from '../config.ts';
import type { InvoiceKind, InvoiceLine, InvoiceType, PaymentMethod } from '../db/schema.ts';
import { formatDateFr, formatDecimalFr, formatEuros, formatRateFr } from '../format/french.ts';
import { ibanForReading } from '../money/iban.ts';
import type { Money } from '../money/money.ts';
import { a4Document, dataTable, documentTitle, fieldsBlock, heading, partiesBlock, totalsBlock } from '../pdf/blocks.ts';
import type { PdfDocument } from '../pdf/document.ts';
import { INVOICE_TYPE_LABELS, PAYMENT_METHOD_LABELS } from './invoice.labels.ts';
import { lineAmounts } from './invoice.rules.ts';

export interface InvoiceDocumentInput {
  number: string;
  invoice_type: InvoiceType;
  payment_method: PaymentMethod;
  period_label: string;
  issue_date: string;
  due_date: string;
  lines: readonly InvoiceLine[];
  total_ht: Money;
  total_vat: Money;
  total_ttc: Money;
  seller: OperatorConfig;
  buyer: {
    name: string;
    structure_api: string | null;
    siret: string | null;
    address_line?: string | null;
    postcode?: string | null;
    city?: string | null;
    country?: string;
  };
  /** A credit note (`avoir`) names the invoice it credits and why. @default 'facture' */
  kind?: InvoiceKind;
  credited?: { number: string; issue_date: string } | null;
  credit_reason?: string | null;
}

/** "12 rue de la Paix, 75002 Paris" (and the country when not France), from the parts set. */
export function postalAddress(street: string | null | undefined, postcode: string | null | undefined, city: string | null | undefined, country = 'FR'): string {
  const town = [postcode, city].filter(Boolean).join(' ');
  return [street, town, country === 'FR' ? '' : country].filter(Boolean).join(', ');
}

/**
 * The payment terms and legal mentions, in the order an accountant reads them. A credit note is
 * owed to the client: nothing is debited nor to be paid, and no late-payment penalty applies.
 */
export function legalMentions(input: Pick<InvoiceDocumentInput, 'number' | 'payment_method' | 'due_date' | 'seller' | 'kind' | 'credited'>): string[] {
  if (input.kind === 'avoir') {
    const invoice = input.credited ? `la facture ${input.credited.number}` : 'la facture créditée';
    return [
      `Cet avoir annule tout ou partie de ${invoice} : son montant TTC vous est dû. Il sera déduit de votre prochain règlement ou vous sera remboursé${input.payment_method === 'virement' ? ' par virement' : ''}.`,
    ];
  }
  const due = formatDateFr(input.due_date);
  const { seller } = input;
  const account = seller.iban ? ` IBAN ${ibanForReading(seller.iban)}${seller.bic ? `, BIC ${seller.bic}` : ''}` : '';
  return [
    input.payment_method === 'prelevement'
      ? `Règlement par prélèvement SEPA : le montant TTC sera prélevé le ${due}, date d'échéance.`
      : `Règlement par virement avant le ${due}, date d'échéance${account ? `, sur le compte${account}` : ''}, en rappelant la référence ${input.number}.`,
    "Pas d'escompte pour paiement anticipé.",
    "En cas de retard de paiement, des pénalités de retard sont exigibles de plein droit le jour suivant la date d'échéance, au taux d'intérêt appliqué par la Banque centrale européenne à son opération de refinancement la plus récente majoré de 10 points (article L. 441-10 du Code de commerce).",
    'Tout retard de paiement entraîne en outre une indemnité forfaitaire de 40 € pour frais de recouvrement (article D. 441-5 du Code de commerce).',
  ];
}

export function invoiceDocument(input: InvoiceDocumentInput): PdfDocument {
  const { seller, buyer } = input;
  const word = input.kind === 'avoir' ? 'Avoir' : 'Facture';
  const rows = input.lines.map((line) => {
    const { ht } = lineAmounts(line);
    return [line.label, formatDecimalFr(line.quantity), formatEuros(line.unit_price as Money), formatRateFr(line.vat_rate), formatEuros(ht)];
  });
  return a4Document({
    title: `${word} ${input.number}`,
    author: seller.name,
    pageFooter: `${word} ${input.number} · ${seller.name}${seller.siren ? ` · SIREN ${seller.siren}` : ''}`,
    // The Factur-X file is PDF/A-3, whose fonts are embedded.
    embedFonts: true,
    content: [
      ...documentTitle(word, `N° ${input.number}`),
      partiesBlock([
        {
          role: 'Vendeur',
          name: seller.name,
          lines: [
            postalAddress(seller.address, seller.postcode, seller.city),
            seller.siren ? `SIREN : ${seller.siren}` : '',
            seller.siret ? `SIRET : ${seller.siret}` : '',
            seller.vat ? `N° TVA intracommunautaire : ${seller.vat}` : '',
          ],
        },
        {
          role: 'Client',
          name: buyer.name,
          lines: [
            postalAddress(buyer.address_line, buyer.postcode, buyer.city, buyer.country),
            buyer.structure_api ? `Code client : ${buyer.structure_api}` : '',
            buyer.siret ? `SIRET : ${buyer.siret}` : '',
          ],
        },
      ]),
      fieldsBlock([
        [input.kind === 'avoir' ? "Numéro d'avoir" : 'Numéro de facture', input.number],
        ...(input.kind === 'avoir' && input.credited
          ? ([
              ['Facture créditée', `${input.credited.number} du ${formatDateFr(input.credited.issue_date)}`],
              ['Motif', input.credit_reason ?? ''],
            ] as [string, string][])
          : []),
        ["Date d'émission", formatDateFr(input.issue_date)],
        ...(input.kind === 'avoir' ? [] : ([["Date d'échéance", formatDateFr(input.due_date)]] as [string, string][])),
        ['Objet', INVOICE_TYPE_LABELS[input.invoice_type]],
        ['Période', input.period_label],
        ['Mode de règlement', PAYMENT_METHOD_LABELS[input.payment_method]],
      ]),
      heading('Détail'),
      dataTable(
        [
          { header: 'Désignation', width: '*' },
          { header: 'Quantité', width: 50, alignment: 'right' },
          { header: 'Prix unitaire HT', width: 80, alignment: 'right' },
          { header: 'TVA', width: 40, alignment: 'right' },
          { header: 'Total HT', width: 80, alignment: 'right' },
        ],
        rows,
      ),
      totalsBlock([
        ['Total HT', formatEuros(input.total_ht)],
        ['TVA', formatEuros(input.total_vat)],
        ['Total TTC', formatEuros(input.total_ttc)],
      ]),
      heading(input.kind === 'avoir' ? "Règlement de l'avoir" : 'Conditions de règlement'),
      ...legalMentions(input).map((text) => ({ text, margin: [0, 0, 0, 4] as [number, number, number, number] })),
    ],
  });
}
