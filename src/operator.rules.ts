/**
 * The operator's identity and bank account (seller of invoices, debtor of salary transfers):
 * how each setting is written and checked. One set of rules for the two places a value comes
 * from: the environment variables at start-up (`config.ts`, where they are the defaults) and
 * the staff's settings page (`operator/`, where a saved value wins). Pure, so that the
 * configuration, which imports nothing of the application, can use it.
 */
import { hasUnsafeCharacters } from './text.rules.ts';

/** The settings, as the rest of the code reads them (`siren` is the SIRET's first nine digits when there is a SIRET). */
export interface OperatorIdentity {
  /** @default 'Payroll' */
  name: string;
  /** Nine digits, or empty. */
  siren: string;
  /** Fourteen digits, or empty. */
  siret: string;
  /** The intra-community VAT number, upper case without spaces, or empty. */
  vat: string;
  /** The street line, or empty. */
  address: string;
  /** Five digits, or empty; the country is FR. */
  postcode: string;
  city: string;
  /** Without spaces, upper case; null when unset. */
  iban: string | null;
  bic: string | null;
}

export const OPERATOR_FIELDS = ['name', 'siren', 'siret', 'vat', 'address', 'postcode', 'city', 'iban', 'bic'] as const;
export type OperatorField = (typeof OPERATOR_FIELDS)[number];

/** The environment variable that gives each setting its default. */
export const OPERATOR_ENV: Record<OperatorField, string> = {
  name: 'OPERATOR_NAME',
  siren: 'OPERATOR_SIREN',
  siret: 'OPERATOR_SIRET',
  vat: 'OPERATOR_VAT_ID',
  address: 'OPERATOR_ADDRESS',
  postcode: 'OPERATOR_POSTCODE',
  city: 'OPERATOR_CITY',
  iban: 'OPERATOR_IBAN',
  bic: 'OPERATOR_BIC',
};

export const OPERATOR_NAME_DEFAULT = 'Payroll';

/** The longest text setting (name, street line, city). */
export const OPERATOR_TEXT_MAX = 200;

/** The shape of each identifier, once normalized (the settings page's schema: src/schemas/operator.ts). */
export const OPERATOR_SHAPES: Partial<Record<OperatorField, RegExp>> = {
  siren: /^\d{9}$/,
  siret: /^\d{14}$/,
  vat: /^[A-Z]{2}[A-Z0-9]{2,13}$/,
  postcode: /^\d{5}$/,
  iban: /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/,
  bic: /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
};

/** Identifiers are written without spaces (bank and VAT ones also in upper case); texts trimmed. */
export function normalizeOperatorValue(field: OperatorField, raw: string): string {
  switch (field) {
    case 'siren':
    case 'siret':
      return raw.replace(/\s+/g, '');
    case 'vat':
    case 'iban':
    case 'bic':
      return raw.replace(/\s+/g, '').toUpperCase();
    default:
      return raw.trim();
  }
}

/**
 * A normalized, non-empty value keeps its setting's rule: an identifier its shape; a text its
 * length and the text rule of every field (no control character, no bidirectional override),
 * whether it comes from the settings page or from an environment variable.
 */
export function isValidOperatorValue(field: OperatorField, value: string): boolean {
  const shape = OPERATOR_SHAPES[field];
  if (shape) return shape.test(value);
  return value.length <= OPERATOR_TEXT_MAX && !hasUnsafeCharacters(value);
}

/** The SIRET names the establishment of the SIREN: its first nine digits are the SIREN. */
export function siretMatchesSiren(siret: string, siren: string): boolean {
  return !siret || !siren || siret.startsWith(siren);
}

/**
 * The identity with `values` set (a field absent keeps its default; an empty value is "none",
 * the name excepted, which falls back to its default): the SIREN follows the SIRET.
 */
export function withOperatorValues(defaults: Readonly<Record<OperatorField, string | null>>, values: Partial<Record<OperatorField, string>>): OperatorIdentity {
  const pick = (field: OperatorField) => values[field] ?? defaults[field] ?? '';
  const siret = pick('siret');
  return {
    name: pick('name') || OPERATOR_NAME_DEFAULT,
    siren: siret ? siret.slice(0, 9) : pick('siren'),
    siret,
    vat: pick('vat'),
    address: pick('address'),
    postcode: pick('postcode'),
    city: pick('city'),
    iban: pick('iban') || null,
    bic: pick('bic') || null,
  };
}

/**
 * The settings a Factur-X invoice needs (its seller), named by their variables, those unset.
 * An invoice document is not produced without them (409 `operator_identity_missing`).
 */
export function missingOperatorIdentity(operator: OperatorIdentity): string[] {
  const missing: string[] = [];
  if (!operator.siret) missing.push(OPERATOR_ENV.siret);
  if (!operator.vat) missing.push(OPERATOR_ENV.vat);
  if (!operator.address) missing.push(OPERATOR_ENV.address);
  if (!operator.postcode) missing.push(OPERATOR_ENV.postcode);
  if (!operator.city) missing.push(OPERATOR_ENV.city);
  return missing;
}
