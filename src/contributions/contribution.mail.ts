/** The contribution calls' e-mail (issue 36): a call is there to pay, told like an invoice (MODULES 7). */
import type { RenderedMail } from '../mail/outbox.ts';
import { oneLine, renderMail } from '../mail/templates.ts';
import { ofFr } from '../format/french.ts';

export interface ContributionMailInput {
  orgName: string;
  /** Already formatted (`formatPeriodFr`): "novembre 2026". */
  period: string;
  /** Already formatted (`formatDateFr`). */
  dueDate: string;
  /** Already formatted (`formatEuros`). */
  total: string;
  /** Each organism's words (`organismLabel`) and its formatted amount. */
  lines: Array<{ organism: string; amount: string }>;
  /** `{PUBLIC_URL}/factures`: the client's page of invoices and contribution calls. */
  callsUrl: string;
  supportEmail: string;
}

export function contributionCallEmail(input: ContributionMailInput): RenderedMail {
  const orgName = oneLine(input.orgName);
  const period = oneLine(input.period);
  return renderMail({
    subject: `Appel de cotisations ${ofFr(period)} : ${input.total}`,
    title: `Votre appel de cotisations ${ofFr(period)}`,
    preheader: `${input.total} à régler avant le ${input.dueDate}.`,
    greeting: 'Bonjour,',
    blocks: [
      { type: 'paragraph', text: `L'appel de cotisations ${ofFr(period)} pour ${orgName} est disponible dans votre espace : ${input.total} à régler au plus tard le ${input.dueDate}.` },
      {
        type: 'facts',
        facts: [
          { label: 'Période', value: period },
          ...input.lines.map((line) => ({ label: oneLine(line.organism), value: line.amount })),
          { label: 'Total', value: input.total },
          { label: 'Échéance', value: input.dueDate },
        ],
      },
      { type: 'button', label: 'Voir mes appels de cotisations', url: input.callsUrl },
      { type: 'contact', supportEmail: input.supportEmail },
    ],
  });
}
