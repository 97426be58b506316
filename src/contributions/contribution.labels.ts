/** The contribution calls' words. */
import type { ContributionStatus } from '../db/schema.ts';
import { labelOf } from '../format/labels.ts';

/** A contribution call's status, on its pages and in its export. */
export const CALL_STATUS_LABELS: Record<ContributionStatus, string> = {
  a_payer: 'À payer',
  paye: 'Payé',
};

/** Organisms of contribution calls (MODULES 6 `KNOWN_ORGANISMS`); any other name as it is. */
export const ORGANISM_LABELS: Record<string, string> = {
  URSSAF: 'Urssaf',
  AUDIENS: 'Audiens',
  CONGES_SPECTACLES: 'Congés Spectacles',
  FRANCE_TRAVAIL: 'France Travail',
  AFDAS: 'Afdas',
};
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
