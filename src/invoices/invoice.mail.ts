/** The invoices module's e-mail: an invoice is available. */
import type { RenderedMail } from '../mail/outbox.ts';
import { oneLine, renderMail, type Block } from '../mail/templates.ts';
import { ibanForReading } from '../money/iban.ts';

export interface InvoiceMailInput {
  number: string;
  /** A credit note (`avoir`) is notified like an invoice, in its own words. @default 'facture' */
  kind?: 'facture' | 'avoir';
  orgName: string;
  invoiceType: 'paie_mensuelle' | 'frais_ouverture' | 'prestation';
  paymentMethod: 'prelevement' | 'virement';
  /** May be empty: a monthly payroll invoice then says "du mois". */
  periodLabel: string;
  /** Already formatted (`formatDateFr`). */
  issueDate: string;
  dueDate: string;
  /** Already formatted (`formatEuros`). */
  totalHt: string;
  totalVat: string;
  totalTtc: string;
  /** The operator's name, and its account for a transfer (null when unset). */
  operatorName: string;
  operatorIban: string | null;
  operatorBic: string | null;
  /** `{PUBLIC_URL}/factures`. */
  invoicesUrl: string;
  supportEmail: string;
}

/**
 * What the invoice is, in the sentence "Votre facture … est disponible":
 * a monthly payroll invoice names its period, or says "du mois" when the label is empty.
 */
export function invoiceSubjectLine(invoiceType: InvoiceMailInput['invoiceType'], periodLabel: string): string {
  const label = oneLine(periodLabel);
  switch (invoiceType) {
    case 'paie_mensuelle':
      return label ? `de gestion de la paie pour la période ${label}` : 'de gestion de la paie du mois';
    case 'frais_ouverture':
      return label ? `de frais d'ouverture de dossier (${label})` : "de frais d'ouverture de dossier";
    case 'prestation':
      return label ? `de prestation (${label})` : 'de prestation';
  }
}

/** An invoice is available; the text by type and payment method. */
export function invoiceEmail(input: InvoiceMailInput): RenderedMail {
  if (input.kind === 'avoir') return creditNoteEmail(input);
  const number = oneLine(input.number);
  const orgName = oneLine(input.orgName);
  const what = invoiceSubjectLine(input.invoiceType, input.periodLabel);
  const payment: Block[] =
    input.paymentMethod === 'prelevement'
      ? [
          {
            type: 'paragraph',
            text: `Le montant de ${input.totalTtc} sera prélevé sur votre compte le ${input.dueDate}, date d'échéance de la facture. Vous n'avez rien à faire.`,
          },
        ]
      : [
          {
            type: 'paragraph',
            text: `Merci de régler la somme de ${input.totalTtc} par virement avant le ${input.dueDate}, en indiquant la référence ${number} dans le libellé du virement.`,
          },
          ...(input.operatorIban
            ? [
                {
                  type: 'facts' as const,
                  facts: [
                    { label: 'Bénéficiaire', value: oneLine(input.operatorName) },
                    { label: 'IBAN', value: ibanForReading(input.operatorIban) },
                    ...(input.operatorBic ? [{ label: 'BIC', value: input.operatorBic }] : []),
                    { label: 'Référence', value: number },
                  ],
                },
              ]
            : []),
        ];
  return renderMail({
    subject: `Votre facture ${number} est disponible`,
    title: `Votre facture ${number} est disponible`,
    preheader: `Votre facture ${what} est disponible : ${input.totalTtc}.`,
    greeting: 'Bonjour,',
    blocks: [
      { type: 'paragraph', text: `Votre facture ${what} est disponible dans votre espace, pour ${orgName}.` },
      {
        type: 'facts',
        facts: [
          { label: 'Facture', value: number },
          { label: "Date d'émission", value: input.issueDate },
          { label: 'Montant HT', value: input.totalHt },
          { label: 'TVA', value: input.totalVat },
          { label: 'Montant TTC', value: input.totalTtc },
          { label: 'Échéance', value: input.dueDate },
          { label: 'Règlement', value: input.paymentMethod === 'prelevement' ? 'prélèvement SEPA' : 'virement bancaire' },
        ],
      },
      ...payment,
      { type: 'button', label: 'Voir mes factures', url: input.invoicesUrl },
      { type: 'contact', supportEmail: input.supportEmail },
    ],
  });
}

/** A credit note is available; nothing to pay. */
function creditNoteEmail(input: InvoiceMailInput): RenderedMail {
  const number = oneLine(input.number);
  const orgName = oneLine(input.orgName);
  return renderMail({
    subject: `Votre avoir ${number} est disponible`,
    title: `Votre avoir ${number} est disponible`,
    preheader: `Votre avoir est disponible : ${input.totalTtc}.`,
    greeting: 'Bonjour,',
    blocks: [
      { type: 'paragraph', text: `Un avoir de ${input.totalTtc} a été émis pour ${orgName} : il est disponible dans votre espace, avec vos factures.` },
      {
        type: 'facts',
        facts: [
          { label: 'Avoir', value: number },
          { label: "Date d'émission", value: input.issueDate },
          { label: 'Montant HT', value: input.totalHt },
          { label: 'TVA', value: input.totalVat },
          { label: 'Montant TTC', value: input.totalTtc },
        ],
      },
      { type: 'button', label: 'Voir mes factures', url: input.invoicesUrl },
      { type: 'contact', supportEmail: input.supportEmail },
    ],
  });
}
