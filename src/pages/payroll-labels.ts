/** French words of the module pages: contract statuses, kinds and natures of dates. */
import type { ContractKind, ContractStatus, DateNature } from '../db/schema.ts';
import { CONTRACT_KINDS, CONTRACT_STATUSES, DATE_NATURES } from '../contracts/contract.rules.ts';
import { html, type SafeHtml } from '../format/html.ts';

export const CONTRACT_STATUS_LABELS: Record<ContractStatus, string> = {
  brouillon: 'Brouillon',
  a_signer: 'À signer',
  signe: 'Signé',
  annule: 'Annulé',
};

export const CONTRACT_KIND_LABELS: Record<ContractKind, string> = {
  CDDU: "CDDU (durée déterminée d'usage)",
  CDD: 'CDD (durée déterminée)',
  CDI: 'CDI (durée indéterminée)',
};

export const DATE_NATURE_LABELS: Record<DateNature, string> = {
  representation: 'Représentation',
  repetition: 'Répétition',
  service: 'Service',
  heures: 'Heures',
};

/** A value of a known list in French; anything else as it is. */
function labelOf<K extends string>(labels: Record<K, string>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value as K] : value;
}

export const contractStatusLabel = (status: string) => labelOf(CONTRACT_STATUS_LABELS, status);
export const dateNatureLabel = (nature: string) => labelOf(DATE_NATURE_LABELS, nature);

export { CONTRACT_KINDS, CONTRACT_STATUSES, DATE_NATURES };

/** Invoice objects (MODULES 6 `invoice_type`). */
export const INVOICE_TYPE_LABELS: Record<string, string> = {
  paie_mensuelle: 'Paie mensuelle',
  frais_ouverture: "Frais d'ouverture",
  prestation: 'Prestation',
};
export const invoiceTypeLabel = (type: string) => labelOf(INVOICE_TYPE_LABELS, type);

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

const MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];

/** `"2027-03"` → `"mars 2027"`; anything else as it is. */
export function periodLabel(period: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(period);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${month} ${match[1]}` : period;
}

/** A period as a French user types it (`03/2027`, `3/2027`) in the API's form (`2027-03`); anything else as it is. */
export function periodFromFr(value: string): string {
  const match = /^(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return match ? `${match[2]}-${match[1]!.padStart(2, '0')}` : value.trim();
}

/** Organisms of contribution calls (MODULES 6 `KNOWN_ORGANISMS`); any other name as it is. */
export const ORGANISM_LABELS: Record<string, string> = {
  URSSAF: 'Urssaf',
  AUDIENS: 'Audiens',
  CONGES_SPECTACLES: 'Congés Spectacles',
  FRANCE_TRAVAIL: 'France Travail',
  AFDAS: 'Afdas',
};
export const organismLabel = (organism: string) => labelOf(ORGANISM_LABELS, organism);
