/** The contribution calls' words. */
import { labelOf } from '../format/labels.ts';

/** Organisms of contribution calls (MODULES 6 `KNOWN_ORGANISMS`); any other name as it is. */
export const ORGANISM_LABELS: Record<string, string> = {
  URSSAF: 'Urssaf',
  AUDIENS: 'Audiens',
  CONGES_SPECTACLES: 'Congés Spectacles',
  FRANCE_TRAVAIL: 'France Travail',
  AFDAS: 'Afdas',
};
export const organismLabel = (organism: string) => labelOf(ORGANISM_LABELS, organism);
