/**
 * The e-mail of a change to where an employee's salary goes or how much tax is withheld from it
 * (their IBAN, their withholding rate): to the organization's administrators and the payroll
 * team, so that a change nobody meant (a mistaken or a hijacked account) is seen before a salary
 * is paid. Never the IBAN itself: its last four characters only.
 */
import type { RenderedMail } from '../mail/outbox.ts';
import { oneLine, renderMail } from '../mail/templates.ts';
import { formatRateFr } from '../format/french.ts';

export interface SensitiveChange {
  /** The IBAN before and after, each as its last four characters (null: none). */
  iban?: { before: string | null; after: string | null };
  /** The withholding rate before and after (null: the neutral grid). */
  pas_rate?: { before: string | null; after: string | null };
}

export interface EmployeeChangeMailInput {
  orgName: string;
  employeeName: string;
  /** Who made the change: an e-mail address, or the payroll team. */
  author: string;
  changes: SensitiveChange;
  /** Where to check it (the payroll team's page of the organization); none for the organization's administrators. */
  url: string | null;
}

const maskedIban = (last4: string | null) => (last4 ? `•••• ${oneLine(last4)}` : 'aucun');
const rate = (value: string | null) => (value === null ? 'grille neutre' : formatRateFr(value));

/** The lines "what changed", each "before → after". */
export function changeFacts(changes: SensitiveChange): Array<{ label: string; value: string }> {
  const facts: Array<{ label: string; value: string }> = [];
  if (changes.iban) facts.push({ label: 'IBAN', value: `${maskedIban(changes.iban.before)} → ${maskedIban(changes.iban.after)}` });
  if (changes.pas_rate) facts.push({ label: 'Taux de prélèvement à la source', value: `${rate(changes.pas_rate.before)} → ${rate(changes.pas_rate.after)}` });
  return facts;
}

export function employeeChangeEmail(input: EmployeeChangeMailInput): RenderedMail {
  const employee = oneLine(input.employeeName);
  const orgName = oneLine(input.orgName);
  const what = [input.changes.iban ? "l'IBAN" : null, input.changes.pas_rate ? 'le taux de prélèvement à la source' : null].filter(Boolean).join(' et ');
  const both = Boolean(input.changes.iban && input.changes.pas_rate);
  const changed = both ? 'modifiés' : 'modifié';
  return renderMail({
    subject: `Salarié ${employee} : ${what} ${changed}`,
    title: `Modification pour ${employee}`,
    preheader: `${orgName} : ${what} de ${employee} ${both ? 'ont été' : 'a été'} ${changed}.`,
    greeting: 'Bonjour,',
    blocks: [
      {
        type: 'paragraph',
        text: `${what.charAt(0).toUpperCase()}${what.slice(1)} de ${employee} (${orgName}) ${both ? 'viennent' : 'vient'} d'être ${changed}. Si ce changement n'était pas prévu, vérifiez-le avant le prochain paiement des salaires.`,
      },
      {
        type: 'facts',
        facts: [
          { label: 'Organisation', value: orgName },
          { label: 'Salarié', value: employee },
          { label: 'Modifié par', value: oneLine(input.author) },
          ...changeFacts(input.changes),
        ],
      },
      ...(input.url ? [{ type: 'button' as const, label: "Voir l'organisation", url: input.url }] : []),
    ],
  });
}
