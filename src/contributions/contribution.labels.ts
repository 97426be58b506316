/** The contribution calls' words. */
import type { ContributionStatus } from '../db/schema.ts';
import { labelOf } from '../format/labels.ts';

/** A contribution call's status, on its pages and in its export. */
export const CALL_STATUS_LABELS: Record<ContributionStatus, string> = {
  a_payer: 'À payer',
  paye: 'Payé',
};

/**
 * The organisms usually called, in the order a call's form and its export list them, with their
 * words; any other name is accepted too and shown as it is.
 */
export const ORGANISMS = [
  { code: 'URSSAF', label: 'Urssaf' },
  { code: 'AUDIENS', label: 'Audiens' },
  { code: 'CONGES_SPECTACLES', label: 'Congés Spectacles' },
  { code: 'FRANCE_TRAVAIL', label: 'France Travail' },
  { code: 'AFDAS', label: 'Afdas' },
] as const;
export type Organism = (typeof ORGANISMS)[number]['code'];

export const ORGANISM_LABELS = Object.fromEntries(ORGANISMS.map((o) => [o.code, o.label])) as Record<Organism, string>;
export const organismLabel = (organism: string) => labelOf(ORGANISM_LABELS, organism);

/**
 * What a call is, in a few words beside its number: the month's call, a complementary one
 * (naming the first), a credit, or one typed by staff.
 */
export function callKindLabel(call: { origin: string; first_call_number: string | null; total: string }): string {
  if (call.origin === 'saisi') return 'Saisi par l’équipe paie';
  const credit = call.total.startsWith('-');
  if (call.first_call_number) return `${credit ? 'Avoir' : 'Complémentaire'} de ${call.first_call_number}`;
  return credit ? 'Avoir' : 'Appel du mois';
}
