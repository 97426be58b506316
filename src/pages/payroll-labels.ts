/** French words of the module pages: contract statuses, kinds and natures of dates. */
import type { ContractKind, ContractStatus, DateNature } from '../db/schema.ts';
import { CONTRACT_KINDS, CONTRACT_STATUSES, DATE_NATURES } from '../contracts/contract.rules.ts';

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
