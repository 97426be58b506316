/** What the module pages show of statuses (badges) and periods; each module's words are in its `<module>.labels.ts`. */
import { CALL_STATUS_LABELS } from '../contributions/contribution.labels.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { labelOf } from '../format/labels.ts';
import { PAYSLIP_STATUS_LABELS } from '../payslips/payslip.labels.ts';
import { TRANSFER_STATUS_LABELS } from '../transfers/transfer.labels.ts';

/** Statuses of payslips, transfer batches and contribution calls: each module's words, with their badge's colour. */
const BADGES = {
  payslip: { words: PAYSLIP_STATUS_LABELS, colours: { publie: 'active', annule: 'revoked' } },
  transfer: { words: TRANSFER_STATUS_LABELS, colours: { genere: 'pending', execute: 'active', annule: 'revoked' } },
  call: { words: CALL_STATUS_LABELS, colours: { a_payer: 'pending', paye: 'active' } },
} as const satisfies Record<string, { words: Record<string, string>; colours: Record<string, string> }>;

export function labelBadge(kind: keyof typeof BADGES, value: string): SafeHtml {
  const { words, colours } = BADGES[kind] as { words: Record<string, string>; colours: Record<string, string> };
  return html`<span class="badge badge-${colours[value] ?? 'pending'}">${labelOf(words, value)}</span>`;
}

/**
 * A transfer as the organization paid through it reads it: staff's "Généré" (the SEPA file was made)
 * said nothing to a client of whether the salaries had left.
 */
const CLIENT_TRANSFER_WORDS: Record<string, string> = { genere: 'En cours', execute: 'Exécuté', annule: 'Annulé' };
export function clientTransferBadge(value: string): SafeHtml {
  return html`<span class="badge badge-${BADGES.transfer.colours[value as keyof typeof BADGES.transfer.colours] ?? 'pending'}">${labelOf(CLIENT_TRANSFER_WORDS, value)}</span>`;
}

/** `"2027-03"` → `"mars 2027"`; a period typed `03/2027` in the API's form and back (the pages' scripts read them too). */
export { formatPeriodFr as periodLabel, periodFromFr, periodToFr } from '../format/calendar-shared.js';
