/**
 * The organization fields the payroll modules use (MODULES 2), as set by
 * `PATCH /api/staff/orgs/{id}` and `org update`: checked and normalized here, once.
 */
import type { SalaryTransferMode } from '../db/schema.ts';
import { AppError, fieldErrors } from '../http/errors.ts';
import { isPlausibleEmail, normalizeEmail } from '../identity/email.ts';

export const SALARY_TRANSFER_MODES = ['Odentas', 'client'] as const satisfies readonly SalaryTransferMode[];

export interface OrgSettings {
  email_notifs: string[];
  email_notifs_cc: string[];
  virements_salaires: SalaryTransferMode;
  documents_slug: string | null;
  siret: string | null;
}

export type OrgSettingsInput = Partial<Record<keyof OrgSettings, unknown>>;

/** At most this many addresses in one list (one e-mail goes to all of them). */
export const MAX_NOTIFICATION_ADDRESSES = 20;

export const orgSettingsErrors = {
  slugTaken: () => new AppError(409, 'documents_slug_taken', 'Ce documents_slug est déjà celui d’une autre organisation.'),
};

/** An address list: an array (or one comma-separated string, as the CLI gives it), lower case, without repeats. */
function addressList(value: unknown, field: 'email_notifs' | 'email_notifs_cc'): string[] {
  const raw = typeof value === 'string' ? value.split(/[,;]/) : value;
  if (!Array.isArray(raw)) throw fieldErrors.invalid(field, `La liste ${field}`);
  const addresses = raw.map((item) => (typeof item === 'string' ? normalizeEmail(item) : null)).filter((item) => item !== '');
  if (addresses.length > MAX_NOTIFICATION_ADDRESSES || addresses.some((a) => a === null || !isPlausibleEmail(a))) {
    throw fieldErrors.invalid(field, `La liste ${field}`);
  }
  return [...new Set(addresses as string[])];
}

const blank = (value: unknown) => value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The settings after an edit: `current` changed by the fields `input` carries (`null` or
 * empty clears the slug and the SIRET, and empties a list).
 */
export function applyOrgSettings(current: OrgSettings, input: OrgSettingsInput): OrgSettings {
  const next = { ...current };
  if (input.email_notifs !== undefined) next.email_notifs = input.email_notifs === null ? [] : addressList(input.email_notifs, 'email_notifs');
  if (input.email_notifs_cc !== undefined) {
    next.email_notifs_cc = input.email_notifs_cc === null ? [] : addressList(input.email_notifs_cc, 'email_notifs_cc');
  }
  if (input.virements_salaires !== undefined) {
    if (!(SALARY_TRANSFER_MODES as readonly unknown[]).includes(input.virements_salaires)) {
      throw fieldErrors.invalid('virements_salaires', 'Le mode de virement des salaires (Odentas ou client)');
    }
    next.virements_salaires = input.virements_salaires as SalaryTransferMode;
  }
  if (input.documents_slug !== undefined) {
    const slug = blank(input.documents_slug) ? null : input.documents_slug;
    if (slug !== null && (typeof slug !== 'string' || slug.length > 100 || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug))) {
      throw fieldErrors.invalid('documents_slug', 'Le documents_slug (minuscules, chiffres et tirets)');
    }
    next.documents_slug = slug;
  }
  if (input.siret !== undefined) {
    const siret = blank(input.siret) ? null : typeof input.siret === 'string' ? input.siret.replace(/\s+/g, '') : '';
    if (siret !== null && !/^\d{14}$/.test(siret)) throw fieldErrors.invalid('siret', 'Le SIRET (14 chiffres)');
    next.siret = siret;
  }
  return next;
}
