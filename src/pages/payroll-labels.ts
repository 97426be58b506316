/** What the module pages show of statuses (badges) and periods; each module's words are in its `<module>.labels.ts`. */
import { formatPeriodFr } from '../format/french.ts';
import { html, type SafeHtml } from '../format/html.ts';

/** Statuses of payslips, transfer batches and contribution calls, with their badge's colour. */
const BADGES = {
  payslip: { publie: ['Publié', 'active'], annule: ['Annulé', 'revoked'] },
  transfer: { genere: ['Généré', 'pending'], execute: ['Exécuté', 'active'], annule: ['Annulé', 'revoked'] },
  call: { a_payer: ['À payer', 'pending'], paye: ['Payé', 'active'] },
} as const satisfies Record<string, Record<string, readonly [string, string]>>;

export function labelBadge(kind: keyof typeof BADGES, value: string): SafeHtml {
  const known = (BADGES[kind] as Record<string, readonly [string, string]>)[value];
  return html`<span class="badge badge-${known?.[1] ?? 'pending'}">${known?.[0] ?? value}</span>`;
}

/** `"2027-03"` → `"mars 2027"` (the one wording, in `format/french.ts`: the bulletin writes it too). */
export const periodLabel = formatPeriodFr;

/** A period as a French user types it (`03/2027`, `3/2027`) in the API's form (`2027-03`); anything else as it is. */
export function periodFromFr(value: string): string {
  const match = /^(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return match ? `${match[2]}-${match[1]!.padStart(2, '0')}` : value.trim();
}

/** The API's period (`2027-03`) as a French user types it (`03/2027`), for a field's value or a link. */
export function periodToFr(period: string): string {
  return `${period.slice(5, 7)}/${period.slice(0, 4)}`;
}
