/**
 * The organization fields the payroll modules use, as set by
 * `PATCH /api/staff/orgs/{id}` and `org update`: checked and normalized here, once.
 */
import type { CategorieJuridique, OrgConvention, SalaryTransferMode } from '../db/schema.ts';
import { AppError, fieldErrors } from '../http/errors.ts';
import { isPlausibleEmail, normalizeEmail } from '../identity/email.ts';
import { parseRate } from '../money/money.ts';
import { hasUnsafeCharacters } from '../http/input.ts';
import { isCountryCode } from '../format/countries.ts';
import { checkField, fieldRefusal } from '../schemas/fields.ts';
import { EFFECTIF_MAX, OrgSettingsFields as fields } from '../schemas/organizations.ts';

export const SALARY_TRANSFER_MODES = ['Odentas', 'client'] as const satisfies readonly SalaryTransferMode[];

/** The collective agreements. */
export const ORG_CONVENTIONS = ['SVP', 'droit_commun'] as const satisfies readonly OrgConvention[];

/** The legal forms, as the payroll model names them. */
export const CATEGORIES_JURIDIQUES = ['association', 'SARL', 'SAS', 'SELARL', 'SELAS', 'EI', 'autre'] as const satisfies readonly CategorieJuridique[];

// The limits of the fields are their schema's (src/schemas/organizations.ts).
export { ADDRESS_LINE_MAX, CITY_MAX, EFFECTIF_MAX, URSSAF_MAX } from '../schemas/organizations.ts';

export interface OrgSettings {
  email_notifs: string[];
  email_notifs_cc: string[];
  virements_salaires: SalaryTransferMode;
  documents_slug: string | null;
  siret: string | null;
  /** The headcount, an integer of at least 1. */
  effectif: number;
  convention: OrgConvention;
  categorie_juridique: CategorieJuridique;
  /** The AT/MP rate, a percentage as `vat_rate` (`"2.30"`); null: the model's default. */
  taux_at: string | null;
  /** The buyer's postal address on invoices; null: unset. */
  address_line: string | null;
  postcode: string | null;
  city: string | null;
  /** ISO 3166 alpha-2, upper case (default `FR`). */
  country: string;
  /** The bulletin: the NAF code (APE), stored `9001Z`; null: unset. */
  ape_code: string | null;
  /** The bulletin: the URSSAF the contributions are paid to; null: unset. */
  urssaf: string | null;
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

/** A headcount: an integer of at least 1, as a JSON number or digits (the command line gives text). */
function parseEffectif(value: unknown): number {
  const given = checkField(fields.effectif, value);
  // Digits say any number: theirs is in range as a JSON number's is.
  const effectif = typeof given === 'number' ? given : Number(given.trim());
  if (effectif < 1 || effectif > EFFECTIF_MAX) throw fieldRefusal(fields.effectif);
  return effectif;
}

/** A NAF code as INSEE writes it (`90.01Z`) or as it is often typed (`9001z`), stored `9001Z`; null when blank. */
export function parseApeCode(value: unknown): string | null {
  if (blank(value)) return null;
  return checkField(fields.ape_code, typeof value === 'string' ? value.trim().toUpperCase() : value).replace('.', '');
}

/** A text field of the address: trimmed, null when blank; 400 `invalid_<field>` when not text, too long or with control characters. */
function addressText(value: unknown, field: 'address_line' | 'city' | 'urssaf'): string | null {
  if (blank(value)) return null;
  // Folded once safe: a control character (U+000B) is refused, not turned into a space.
  return checkField(fields[field], typeof value === 'string' && !hasUnsafeCharacters(value) ? value.trim().replace(/\s+/g, ' ') : value);
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
  if (input.effectif !== undefined) next.effectif = parseEffectif(input.effectif);
  if (input.convention !== undefined) {
    if (!(ORG_CONVENTIONS as readonly unknown[]).includes(input.convention)) {
      throw fieldErrors.invalid('convention', 'La convention collective (SVP ou droit_commun)');
    }
    next.convention = input.convention as OrgConvention;
  }
  if (input.categorie_juridique !== undefined) {
    if (!(CATEGORIES_JURIDIQUES as readonly unknown[]).includes(input.categorie_juridique)) {
      throw fieldErrors.invalid('categorie_juridique', `La catégorie juridique (${CATEGORIES_JURIDIQUES.join(', ')})`);
    }
    next.categorie_juridique = input.categorie_juridique as CategorieJuridique;
  }
  if (input.taux_at !== undefined) {
    // null or empty clears: the model's default rate applies.
    next.taux_at = blank(input.taux_at) ? null : parseRate(checkField(fields.taux_at, input.taux_at));
  }
  // The buyer's address (null or empty clears a part; the country goes back to FR).
  if (input.address_line !== undefined) next.address_line = addressText(input.address_line, 'address_line');
  if (input.city !== undefined) next.city = addressText(input.city, 'city');
  if (input.country !== undefined) {
    const country = blank(input.country)
      ? 'FR'
      : checkField(fields.country, typeof input.country === 'string' ? input.country.trim().toUpperCase() : input.country);
    if (!isCountryCode(country)) throw fieldRefusal(fields.country);
    next.country = country;
  }
  if (input.ape_code !== undefined) next.ape_code = parseApeCode(input.ape_code);
  if (input.urssaf !== undefined) next.urssaf = addressText(input.urssaf, 'urssaf');
  if (input.postcode !== undefined || input.country !== undefined) {
    const raw = input.postcode !== undefined ? input.postcode : current.postcode;
    const refusal = () => (next.country === 'FR' ? fieldErrors.invalid('postcode', 'Le code postal (cinq chiffres)') : fieldRefusal(fields.postcode));
    const given = blank(raw) ? null : checkField(fields.postcode, raw, refusal);
    const postcode = given === null ? null : typeof given === 'string' ? given.trim().toUpperCase() : String(given);
    // France: five digits; elsewhere, 2 to 12 letters, digits, spaces or hyphens.
    const shape = next.country === 'FR' ? /^\d{5}$/ : /^[A-Z0-9][A-Z0-9 -]{0,10}[A-Z0-9]$/;
    if (postcode !== null && !shape.test(postcode)) throw refusal();
    next.postcode = postcode;
  }
  return next;
}
