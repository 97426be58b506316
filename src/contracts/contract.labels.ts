/** The contracts module's words, one wording for its pages, its PDF and its e-mails. */
import type { ContractKind, ContractStatus, DateNature } from '../db/schema.ts';
import { labelOf } from '../format/labels.ts';

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

export const contractStatusLabel = (status: string) => labelOf(CONTRACT_STATUS_LABELS, status);
export const dateNatureLabel = (nature: string) => labelOf(DATE_NATURE_LABELS, nature);
