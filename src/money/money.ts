/**
 * The one money type: `numeric(12,2)` in SQL, a decimal string with two decimals in
 * JSON (`"642.40"`). Arithmetic runs on bigint cents, so no amount ever passes through a float:
 * `0.1 + 0.2` is `"0.30"` here, exactly. Inputs are parsed once, at the edge, by `parseMoney`.
 */
import { Type } from '@sinclair/typebox';
import { AppError } from '../http/errors.ts';

/** A canonical amount: optional `-`, integer digits without leading zeros, `.`, two digits (`"642.40"`). */
export type Money = string & { readonly __money: unique symbol };

/** `numeric(12,2)`: ten integer digits at most. */
export const MONEY_MAX = '9999999999.99' as Money;
const MAX_CENTS = 999_999_999_999n;

/**
 * The most one payslip carries, gross or net: the largest amount of one SEPA credit transfer
 * (pain.001's `InstdAmt`, 999 999 999,99). A payslip at this gross keeps every computed figure
 * (employer cost included) within `numeric(12,2)`.
 */
export const MAX_PAYSLIP_AMOUNT = '999999999.99' as Money;

/** A plain non-negative decimal as written by a person or by `String(number)`: `12`, `12.5`, `0.125`. */
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * The decimal text of an input: a string as given, or a JSON number as JavaScript prints it
 * (the shortest text that reads back as the same number: `12.5`, `1000` for `1e3`). A number
 * such as `0.1 + 0.2` prints `0.30000000000000004` and is refused for its decimals, as it should.
 */
function decimalText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(Object.is(value, -0) ? 0 : value);
  return null;
}

/** A scaled decimal: `digits / 10^scale`. */
interface Scaled {
  digits: bigint;
  scale: number;
}

/** Reads a non-negative decimal with at most `maxDecimals` decimals; null when it is anything else. */
function readDecimal(value: unknown, maxDecimals: number): Scaled | null {
  const text = decimalText(value);
  const match = text === null ? null : DECIMAL.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > maxDecimals) return null;
  return { digits: BigInt(match[1]! + fraction), scale: fraction.length };
}

function toCents(value: Money): bigint {
  // A canonical amount has its point two digits from the end: `"-642.40"` is `-64240n`.
  return BigInt(value.replace('.', ''));
}

function fromCents(cents: bigint): Money {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}` as Money;
}

/** `numerator / denominator` rounded half away from zero (half-up for the positive amounts of payroll). */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (2n * n + d) / (2n * d);
  return negative ? -quotient : quotient;
}

/**
 * The money input rule (docs/modules.md): a decimal string with at most two decimals (`"12"`, `"12.5"`,
 * `"12.50"`) or a JSON number with at most two decimals (`12.5`, `1e3`), at least zero and within
 * `numeric(12,2)`. Null for anything else (`-1`, `"1.234"`, `"abc"`, `" 12"`, `"1e3"`, `""`):
 * the caller answers 400 `invalid_amount`.
 */
export function parseMoney(value: unknown): Money | null {
  const decimal = readDecimal(value, 2);
  if (!decimal) return null;
  const cents = decimal.digits * 10n ** BigInt(2 - decimal.scale);
  return cents <= MAX_CENTS ? fromCents(cents) : null;
}

/** `parseMoney`, answering 400 `invalid_amount` for an invalid input. */
/** The refusal of an amount (`requireMoney`, and the body fields that hold one). */
export const INVALID_AMOUNT = {
  code: 'invalid_amount',
  message: 'Montant invalide : un nombre positif avec deux décimales au plus est attendu (ex. "642.40").',
} as const;

export function requireMoney(value: unknown): Money {
  const money = parseMoney(value);
  if (money === null) {
    throw new AppError(400, INVALID_AMOUNT.code, INVALID_AMOUNT.message);
  }
  return money;
}

/** A `numeric` column's value (pg and PGlite give `"642.40"`; a number is tolerated for computed columns). */
export function moneyFromDb(value: string | number): Money {
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a money value from the database: ${text}`);
  const fraction = (match[3] ?? '').padEnd(2, '0');
  if (fraction.length > 2 && /[^0]/.test(fraction.slice(2))) throw new Error(`more than two decimals: ${text}`);
  const cents = BigInt(match[2]! + fraction.slice(0, 2));
  return fromCents(match[1] ? -cents : cents);
}

/** The exact sum; `"0.00"` for none. It may exceed `numeric(12,2)`: check with `isStorableMoney` before storing it. */
export function sumMoney(values: readonly Money[]): Money {
  return fromCents(values.reduce((total, value) => total + toCents(value), 0n));
}

/** The exact difference `a - b` (negative when b is larger). */
export function subtractMoney(a: Money, b: Money): Money {
  return fromCents(toCents(a) - toCents(b));
}

/** True when the amount fits a `numeric(12,2)` column. */
export function isStorableMoney(value: Money): boolean {
  const cents = toCents(value);
  return cents <= MAX_CENTS && cents >= -MAX_CENTS;
}

/** Compares two amounts: negative, zero or positive, as `Array.prototype.sort` wants. */
export function compareMoney(a: Money, b: Money): number {
  const difference = toCents(a) - toCents(b);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

/** `unit × quantity` (a decimal from `parseQuantity`), rounded half-up to the cent. */
export function multiplyMoney(unit: Money, quantity: string): Money {
  const q = readDecimal(quantity, Number.POSITIVE_INFINITY);
  if (!q) throw new Error(`not a quantity: ${quantity}`);
  return fromCents(divideRounded(toCents(unit) * q.digits, 10n ** BigInt(q.scale)));
}

/** `amount × ratePercent / 100` (a rate from `parseRate`, e.g. VAT `"20.00"`), rounded half-up to the cent. */
export function percentOfMoney(amount: Money, ratePercent: string): Money {
  const rate = readDecimal(ratePercent, Number.POSITIVE_INFINITY);
  if (!rate) throw new Error(`not a rate: ${ratePercent}`);
  return fromCents(divideRounded(toCents(amount) * rate.digits, 100n * 10n ** BigInt(rate.scale)));
}

/** The canonical text of a scaled decimal: no leading zeros, no trailing fractional zeros (`"7.5"`, `"2"`). */
function plainDecimal({ digits, scale }: Scaled): string {
  const text = digits.toString().padStart(scale + 1, '0');
  const whole = text.slice(0, text.length - scale);
  const fraction = text.slice(text.length - scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * A quantity ("a positive number, decimals allowed"): a decimal string or JSON number
 * above zero, at most three decimals and nine integer digits (fits `numeric(12,3)`). Returns its
 * canonical text (`"7.5"`, `"2"`), or null (the caller answers 400 `invalid_quantity`).
 */
export function parseQuantity(value: unknown): string | null {
  const decimal = readDecimal(value, 3);
  if (!decimal || decimal.digits === 0n) return null;
  if (decimal.digits >= 10n ** BigInt(9 + decimal.scale)) return null;
  return plainDecimal(decimal);
}

/**
 * A percentage (`vat_rate`, "the same form" as an amount): at most two decimals, from
 * 0 to 100. Returns it with two decimals (`"20.00"`, as a `numeric(5,2)` column gives it back), or null.
 */
export function parseRate(value: unknown): string | null {
  const decimal = readDecimal(value, 2);
  if (!decimal) return null;
  const hundredths = decimal.digits * 10n ** BigInt(2 - decimal.scale);
  return hundredths <= 10_000n ? fromCents(hundredths) : null;
}

/** An amount in a response: a string with two decimals. */
export const MoneyString = Type.Unsafe<Money>(
  Type.String({ pattern: '^-?[0-9]+\\.[0-9]{2}$', description: 'an amount in euros, two decimals', examples: ['642.40'] }),
);

/**
 * An amount in a request: a decimal string or a JSON number. Left untyped for the validator on
 * purpose: every wrong value (a boolean, an object, `"abc"`) must reach `parseMoney` and answer
 * 400 `invalid_amount`, not the validator's generic `invalid_request`.
 */
export const MoneyInput = Type.Unsafe<string | number>({
  description: 'an amount in euros: a decimal string or a number, at most two decimals, at least 0 (e.g. "642.40")',
  examples: ['642.40', 12.5],
});
