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

export const SALARY_TRANSFER_MODES = ['Odentas', 'client'] as const satisfies readonly SalaryTransferMode[];

/** The collective agreements. */
export const ORG_CONVENTIONS = ['SVP', 'droit_commun'] as const satisfies readonly OrgConvention[];

/** The legal forms, as the payroll model names them. */
export const CATEGORIES_JURIDIQUES = ['association', 'SARL', 'SAS', 'SELARL', 'SELAS', 'EI', 'autre'] as const satisfies readonly CategorieJuridique[];

/** The largest headcount the `integer` column holds. */
export const EFFECTIF_MAX = 2_147_483_647;

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
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const effectif = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(effectif) || effectif < 1 || effectif > EFFECTIF_MAX) {
    throw fieldErrors.invalid('effectif', "L'effectif (un nombre entier de salariés, au moins 1)");
  }
  return effectif;
}

/** The longest address line and city. */
export const ADDRESS_LINE_MAX = 200;
export const CITY_MAX = 100;
/** The bulletin: the longest URSSAF name ("Urssaf Provence-Alpes-Côte d'Azur"). */
export const URSSAF_MAX = 120;

/** A NAF code as INSEE writes it (`90.01Z`) or as it is often typed (`9001z`), stored `9001Z`; null when blank. */
export function parseApeCode(value: unknown): string | null {
  if (blank(value)) return null;
  const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!/^\d{2}\.?\d{2}[A-Z]$/.test(code)) throw fieldErrors.invalid('ape_code', 'Le code APE (quatre chiffres et une lettre, par exemple 9001Z ou 90.01Z)');
  return code.replace('.', '');
}

/** A text field of the address: trimmed, null when blank; 400 `invalid_<field>` when not text, too long or with control characters. */
function addressText(value: unknown, field: 'address_line' | 'city' | 'urssaf', max: number, what: string): string | null {
  if (blank(value)) return null;
  // Checked before the spaces are folded: a control character (U+000B) is refused, not turned into a space.
  const text = typeof value === 'string' && !hasUnsafeCharacters(value) ? value.trim().replace(/\s+/g, ' ') : '';
  if (text === '' || text.length > max) throw fieldErrors.invalid(field, `${what} (${max} caractères au plus)`);
  return text;
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
    const rate = blank(input.taux_at) ? null : parseRate(input.taux_at);
    if (rate === null && !blank(input.taux_at)) throw fieldErrors.invalid('taux_at', 'Le taux AT/MP (de 0 à 100, deux décimales au plus)');
    next.taux_at = rate;
  }
  // The buyer's address (null or empty clears a part; the country goes back to FR).
  if (input.address_line !== undefined) next.address_line = addressText(input.address_line, 'address_line', ADDRESS_LINE_MAX, "L'adresse");
  if (input.city !== undefined) next.city = addressText(input.city, 'city', CITY_MAX, 'La ville');
  if (input.country !== undefined) {
    const country = blank(input.country) ? 'FR' : typeof input.country === 'string' ? input.country.trim().toUpperCase() : '';
    if (!isCountryCode(country)) throw fieldErrors.invalid('country', 'Le pays (code ISO 3166 à deux lettres : FR, BE…)');
    next.country = country;
  }
  if (input.ape_code !== undefined) next.ape_code = parseApeCode(input.ape_code);
  if (input.urssaf !== undefined) next.urssaf = addressText(input.urssaf, 'urssaf', URSSAF_MAX, "L'URSSAF de recouvrement");
  if (input.postcode !== undefined || input.country !== undefined) {
    const raw = input.postcode !== undefined ? input.postcode : current.postcode;
    const postcode = blank(raw) ? null : typeof raw === 'string' ? raw.trim().toUpperCase() : typeof raw === 'number' ? String(raw) : '';
    // France: five digits; elsewhere, 2 to 12 letters, digits, spaces or hyphens.
    const shape = next.country === 'FR' ? /^\d{5}$/ : /^[A-Z0-9][A-Z0-9 -]{0,10}[A-Z0-9]$/;
    if (postcode !== null && !shape.test(postcode)) {
      throw fieldErrors.invalid('postcode', next.country === 'FR' ? 'Le code postal (cinq chiffres)' : 'Le code postal');
    }
    next.postcode = postcode;
  }
  return next;
}
