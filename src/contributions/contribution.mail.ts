/**
 * The contribution calls' e-mails: a call is there to pay, told like an invoice. The operator
 * collects the contributions and pays each organism itself, so the e-mail says whom to pay
 * (the operator, by transfer to its account), how much, by when and with which reference; a
 * credit says what is owed back. A revised call is told again with its new total.
 */
import type { RenderedMail } from '../mail/outbox.ts';
import { oneLine, renderMail, type Block } from '../mail/templates.ts';
import { ofFr } from '../format/french.ts';
import { ibanForReading } from '../money/iban.ts';

export interface ContributionMailInput {
  /** `AC-YYYY-NNNNNN`: the reference to put on the transfer. */
  number: string;
  orgName: string;
  /** Already formatted (`formatPeriodFr`): "novembre 2026". */
  period: string;
  /** Already formatted (`formatDateFr`). */
  dueDate: string;
  /** Already formatted (`formatEuros`): the amount to pay (its absolute value for a credit). */
  total: string;
  /** What the call is: to pay, a credit (the organization is owed), or nothing left to pay. */
  balance: 'due' | 'credit' | 'zero';
  /** Each organism's words (`organismLabel`) and its formatted amount. */
  lines: Array<{ organism: string; amount: string }>;
  /** A complementary call: the month's first call, and the payslips it covers. */
  complement?: { firstNumber: string; payslips: Array<{ name: string; cancelled: boolean }> } | null;
  /** A revised call: the total before, formatted, and what changed. */
  revision?: { before: string; added: number; removed: number } | null;
  /** Who collects the contributions and the account to pay to (null: not known yet). */
  operatorName: string;
  operatorIban: string | null;
  operatorBic: string | null;
  /** `{PUBLIC_URL}/factures#calls`: the client's page of invoices and contribution calls. */
  callsUrl: string;
  supportEmail: string;
}

/** The payslips a complementary call names, at most this many (the page lists them all). */
const NAMED_PAYSLIPS = 30;

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

function whatChanged(revision: NonNullable<ContributionMailInput['revision']>): string {
  const parts = [];
  if (revision.added > 0) parts.push(plural(revision.added, 'bulletin publié', 'bulletins publiés'));
  if (revision.removed > 0) parts.push(plural(revision.removed, 'bulletin annulé', 'bulletins annulés'));
  return parts.join(' et ');
}

/** Whom to pay, how much, by when, with which reference; or what the organization is owed. */
function paymentBlocks(input: ContributionMailInput, number: string, operator: string): Block[] {
  const organisms = input.lines.map((l) => oneLine(l.organism)).join(', ');
  const collects = `${operator} collecte les cotisations de vos salariés pour votre compte et les reverse lui-même à chaque organisme${organisms ? ` (${organisms})` : ''} : vous ne payez pas les organismes vous-même.`;
  if (input.balance === 'credit') {
    return [
      { type: 'paragraph', text: collects },
      {
        type: 'paragraph',
        text: `Cet appel est un avoir de cotisations : ${input.total} vous sont dus, pour des bulletins annulés après le paiement de l'appel ${oneLine(input.complement?.firstNumber ?? number)}. ${operator} vous les rembourse par virement : vous n'avez rien à payer.`,
      },
    ];
  }
  if (input.balance === 'zero') {
    return [{ type: 'paragraph', text: `${collects} Cet appel ne porte plus sur aucun montant : vous n'avez rien à payer.` }];
  }
  return [
    { type: 'paragraph', text: collects },
    {
      type: 'paragraph',
      text: input.operatorIban
        ? `Merci de régler ${input.total} par virement à ${operator} au plus tard le ${input.dueDate}, en indiquant la référence ${number} dans le libellé du virement.`
        : `Merci de régler ${input.total} à ${operator} au plus tard le ${input.dueDate}, en indiquant la référence ${number} ; ses coordonnées bancaires vous seront communiquées par le support.`,
    },
    ...(input.operatorIban
      ? [
          {
            type: 'facts' as const,
            facts: [
              { label: 'Bénéficiaire', value: operator },
              { label: 'IBAN', value: ibanForReading(input.operatorIban) },
              ...(input.operatorBic ? [{ label: 'BIC', value: input.operatorBic }] : []),
              { label: 'Montant', value: input.total },
              { label: 'Référence du virement', value: number },
            ],
          },
        ]
      : []),
  ];
}

export function contributionCallEmail(input: ContributionMailInput): RenderedMail {
  const number = oneLine(input.number);
  const orgName = oneLine(input.orgName);
  const period = oneLine(input.period);
  const operator = oneLine(input.operatorName);
  const credit = input.balance === 'credit';
  const what = credit ? 'avoir de cotisations' : 'appel de cotisations';
  const amountWords = credit
    ? `${input.total} en votre faveur`
    : input.balance === 'zero'
      ? 'rien à payer'
      : `${input.total} à régler au plus tard le ${input.dueDate}`;
  const opening = input.revision
    ? `L'appel de cotisations ${number} ${ofFr(period)} pour ${orgName} a été révisé (${whatChanged(input.revision)}) : ${amountWords}, au lieu de ${input.revision.before}.`
    : `L'${what} ${number} ${ofFr(period)} pour ${orgName} est disponible dans votre espace : ${amountWords}.`;
  const complement: Block[] = input.complement
    ? [
        {
          type: 'paragraph',
          text: `Il complète l'appel ${oneLine(input.complement.firstNumber)} du même mois, déjà payé, pour les bulletins publiés ou annulés depuis :`,
        },
        {
          type: 'facts',
          facts: [
            ...input.complement.payslips
              .slice(0, NAMED_PAYSLIPS)
              .map((p) => ({ label: oneLine(p.name), value: p.cancelled ? 'bulletin annulé, déduit' : 'bulletin publié' })),
            ...(input.complement.payslips.length > NAMED_PAYSLIPS
              ? [{ label: 'Et', value: `${input.complement.payslips.length - NAMED_PAYSLIPS} autres bulletins` }]
              : []),
          ],
        },
      ]
    : [];
  const subjectAmount = credit ? `${input.total} en votre faveur` : input.total;
  return renderMail({
    subject: input.revision
      ? `Appel de cotisations ${number} révisé : ${subjectAmount}`
      : `${credit ? 'Avoir' : 'Appel'} de cotisations ${number} ${ofFr(period)} : ${subjectAmount}`,
    title: input.revision ? `Votre appel de cotisations ${number} a été révisé` : `Votre ${what} ${ofFr(period)}`,
    preheader: credit
      ? `${input.total} en votre faveur.`
      : input.balance === 'zero'
        ? 'Rien à payer.'
        : `${input.total} à régler avant le ${input.dueDate}, référence ${number}.`,
    greeting: 'Bonjour,',
    blocks: [
      { type: 'paragraph', text: opening },
      ...complement,
      {
        type: 'facts',
        facts: [
          { label: 'Référence', value: number },
          { label: 'Période', value: period },
          ...input.lines.map((line) => ({ label: oneLine(line.organism), value: line.amount })),
          { label: 'Total', value: credit ? `${input.total} en votre faveur` : input.total },
          { label: 'Échéance', value: input.dueDate },
        ],
      },
      ...paymentBlocks(input, number, operator),
      { type: 'button', label: 'Voir mes appels de cotisations', url: input.callsUrl },
      { type: 'contact', supportEmail: input.supportEmail },
    ],
  });
}
