/**
 * The rules of employees as pure functions: the fields a creation or an edit
 * may set, checked and normalized. The IBAN is checked by `ibantools` (country, length,
 * check digits, and the SEPA zone: salaries are paid by SEPA transfer), kept in electronic
 * form, and only its last four characters are ever shown. A name must leave something once
 * written for a bank file (`format/sepa.ts`).
 */
import { createRequire } from 'node:module';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { Selectable } from 'kysely';
import type { EmployeeCategory, EmployeeDfs, EmployeesTable } from '../db/schema.ts';
import { fieldErrors } from '../http/errors.ts';
import { FIRST_NAME_MAX, hasUnsafeCharacters } from '../http/input.ts';
import { isPlausibleEmail, normalizeEmail } from '../identity/email.ts';
import { isSepaIban, isSepaWritable } from '../format/sepa.ts';
import { isDrawable } from '../pdf/fonts.ts';
import { parseRate } from '../money/money.ts';
import { checkField } from '../schemas/fields.ts';
import { PasRate } from '../schemas/employees.ts';
import { employeeErrors } from './employee.errors.ts';

export const EMPLOYEE_CATEGORIES = ['artiste', 'technicien', 'permanent'] as const satisfies readonly EmployeeCategory[];

/** The flat professional deductions an artist may agree to, by the payroll model's profession. */
export const EMPLOYEE_DFS = ['artiste_musicien', 'artiste_dramatique'] as const satisfies readonly EmployeeDfs[];

/** An employee's own fields, as the table stores them. */
export type EmployeeFields = Omit<Selectable<EmployeesTable>, 'id' | 'org_id' | 'created_at' | 'updated_at'>;

export type EmployeeFieldsInput = Partial<Record<keyof EmployeeFields, unknown>>;

const NAME_LABELS = { first_name: 'Le prénom', last_name: 'Le nom' } as const;

function requiredName(value: unknown, field: 'first_name' | 'last_name'): string {
  const name = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  if (!name) throw fieldErrors.missing(field, NAME_LABELS[field]);
  // The one check of names (controls, bidi overrides, lone surrogates), and no markup.
  if (hasUnsafeCharacters(name) || /[<>]/.test(name) || name.length > FIRST_NAME_MAX) throw fieldErrors.invalid(field, NAME_LABELS[field]);
  // The name is the payee's on a SEPA transfer: "😀" or "•••" would be written "-" there.
  if (!isSepaWritable(name)) throw employeeErrors.unwritableName(field, NAME_LABELS[field]);
  // The name is printed on contracts and bulletins: every character must have a glyph there.
  if (!isDrawable(name)) throw employeeErrors.undrawableName(field, NAME_LABELS[field]);
  return name;
}

/** The longest postal address line, postcode, city and classification kept. */
export const ADDRESS_LINE_MAX = 200;
export const CITY_MAX = 100;
export const CLASSIFICATION_MAX = 120;

const TEXT_LABELS = {
  address_line: "L'adresse",
  postcode: 'Le code postal',
  city: 'La ville',
  classification: 'La classification',
} as const;

/** An optional line of text: trimmed, spaces collapsed, null when blank; 400 `invalid_<field>` otherwise refused. */
function optionalLine(value: unknown, field: keyof typeof TEXT_LABELS, max: number): string | null {
  if (blank(value)) return null;
  const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  if (text === '' || text.length > max || hasUnsafeCharacters(text) || /[<>]/.test(text) || !isDrawable(text)) {
    throw fieldErrors.invalid(field, `${TEXT_LABELS[field]} (${max} caractères au plus)`);
  }
  return text;
}

/** A postcode of any country: 2 to 12 letters, digits, spaces or hyphens (upper case). */
function optionalPostcode(value: unknown): string | null {
  if (blank(value)) return null;
  const postcode = typeof value === 'string' ? value.trim().toUpperCase() : typeof value === 'number' ? String(value) : '';
  if (!/^[A-Z0-9][A-Z0-9 -]{0,10}[A-Z0-9]$/.test(postcode)) throw fieldErrors.invalid('postcode', 'Le code postal (par exemple 75011)');
  return postcode;
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** An IBAN in electronic form (no spaces, upper case), or null when it is not a valid one. */
export function parseIban(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const iban = electronicFormatIBAN(raw);
  return iban && isValidIBAN(iban) ? iban : null;
}

/** An IBAN typed for an employee: valid (400 `invalid_iban`) and of the SEPA zone (the same code, its own message). */
export function parseEmployeeIban(raw: unknown): string {
  const iban = parseIban(raw);
  if (iban === null) throw employeeErrors.invalidIban();
  const country = iban.slice(0, 2);
  if (!isSepaIban(iban)) throw employeeErrors.ibanOutsideSepa(country);
  return iban;
}

const NEUTRAL_GRID = "impôt . taux neutre d'impôt sur le revenu";
let highestRate: string | null = null;

/**
 * The highest personalised withholding rate accepted: no text we found caps the rate the tax
 * administration sends, so the highest rate of the pinned model's neutral grids (every date,
 * every territory), read from the model, not written here. A rate above it is a typing mistake
 * (97 for 9.7) that would withhold more than the net. Read once, at the first rate checked.
 */
export function highestPasRate(): string {
  if (highestRate === null) {
    const loaded = createRequire(import.meta.url)('modele-social') as { default?: Record<string, unknown> } & Record<string, unknown>;
    const rules = loaded.default ?? loaded;
    let max = 0;
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const item of node) visit(item);
        return;
      }
      for (const [key, value] of Object.entries(node)) {
        if (key === 'montant' && typeof value === 'string' && /^\s*[\d.]+\s*%\s*$/.test(value)) max = Math.max(max, Number(value.replace('%', '').trim()));
        else visit(value);
      }
    };
    for (const [name, rule] of Object.entries(rules)) if (name.startsWith(NEUTRAL_GRID)) visit(rule);
    if (max <= 0) throw new Error(`modele-social: no rate found in "${NEUTRAL_GRID}"; review src/employees/employee.rules.ts`);
    highestRate = parseRate(String(max));
    if (highestRate === null) throw new Error(`modele-social: the neutral grid's highest rate ${max} is not a percentage`);
  }
  return highestRate;
}

/**
 * A creation's or an edit's fields: `current` is the employee before the edit (absent for a
 * creation); a field the input leaves out keeps its value, `null` clears an optional one.
 */
export function checkEmployeeFields(input: EmployeeFieldsInput, current?: EmployeeFields): EmployeeFields {
  const pick = <K extends keyof EmployeeFields>(field: K): unknown => (input[field] === undefined && current ? current[field] : input[field]);

  const firstName = requiredName(pick('first_name'), 'first_name');
  const lastName = requiredName(pick('last_name'), 'last_name');

  const email = pick('email');
  let normalizedEmail: string | null = null;
  if (!blank(email)) {
    normalizedEmail = normalizeEmail(email);
    if (typeof email !== 'string' || !isPlausibleEmail(normalizedEmail)) throw fieldErrors.invalid('email', "L'adresse e-mail");
  }

  const category = pick('category');
  if (!blank(category) && !(EMPLOYEE_CATEGORIES as readonly unknown[]).includes(category)) {
    throw fieldErrors.invalid('category', 'La catégorie (artiste, technicien ou permanent)');
  }

  // An unchanged IBAN is already in electronic form; a new one is checked.
  const iban = input.iban === undefined ? (current?.iban ?? null) : blank(input.iban) ? null : parseEmployeeIban(input.iban);

  const rawBic = pick('bic');
  const bic = blank(rawBic) ? null : typeof rawBic === 'string' ? rawBic.replace(/\s+/g, '').toUpperCase() : '';
  if (bic !== null && !isValidBIC(bic)) throw employeeErrors.invalidBic();

  // Cadre status, a boolean (default false).
  const cadre = input.cadre === undefined ? (current?.cadre ?? false) : input.cadre;
  if (typeof cadre !== 'boolean') throw fieldErrors.invalid('cadre', 'Le statut cadre (true ou false)');

  // The personalised withholding rate, a percentage as `vat_rate`; null: the neutral grid.
  const rawPasRate = pick('pas_rate');
  const pasRateRefusal = () => employeeErrors.invalidPasRate(highestPasRate());
  const pasRate = blank(rawPasRate) ? null : parseRate(checkField(PasRate, rawPasRate, pasRateRefusal))!;
  // An unchanged rate stored before the limit is kept: the payroll run skips its payslip if it cannot be paid.
  const unchanged = input.pas_rate === undefined && current !== undefined;
  if (pasRate !== null && !unchanged && Number(pasRate) > Number(highestPasRate())) throw pasRateRefusal();

  // The flat professional deduction is the artist's to agree to, and an artist's only.
  const rawDfs = pick('dfs');
  const dfs = blank(rawDfs) ? null : rawDfs;
  if (dfs !== null && !(EMPLOYEE_DFS as readonly unknown[]).includes(dfs))
    throw fieldErrors.invalid('dfs', 'La déduction forfaitaire spécifique (artiste_musicien ou artiste_dramatique)');
  if (dfs !== null && category !== 'artiste') throw fieldErrors.invalid('dfs', 'La déduction forfaitaire spécifique, réservée aux artistes,');

  return {
    first_name: firstName,
    last_name: lastName,
    email: normalizedEmail,
    category: blank(category) ? null : (category as EmployeeCategory),
    iban,
    bic,
    cadre,
    pas_rate: pasRate,
    dfs: dfs as EmployeeDfs | null,
    address_line: optionalLine(pick('address_line'), 'address_line', ADDRESS_LINE_MAX),
    postcode: optionalPostcode(pick('postcode')),
    city: optionalLine(pick('city'), 'city', CITY_MAX),
    classification: optionalLine(pick('classification'), 'classification', CLASSIFICATION_MAX),
  };
}
