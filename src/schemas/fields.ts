/**
 * Body fields their module's rules check, each at its turn (src/http/checked-fields.ts says
 * why): `Checked(schema, error)` declares the field once, its type, its limits and the error a
 * value that breaks them answers; `checkField` checks a value against it and gives it typed.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { ERROR_KEYWORD, ownSchema, type FieldError } from '../http/checked-fields.ts';
import { AppError, fieldErrors } from '../http/errors.ts';
import { addTextKeyword } from '../http/text-rule.ts';
import { INVALID_PERIOD, inPayrollWindow, parseIsoDate, PERIOD_PATTERN } from '../format/calendar.ts';
import { absent } from '../http/input.ts';
import { INVALID_AMOUNT, parseMoney, parseQuantity, parseRate } from '../money/money.ts';

declare const CHECKED: unique symbol;

/** A field the rules check against `T`: any value at the edge, `Static<T>` once checked. */
export type TChecked<T extends TSchema> = TUnsafe<unknown> & { readonly [CHECKED]?: T };

/** `schema`, checked by the rules, answering `error` when a value breaks it. */
export function Checked<T extends TSchema>(schema: T, error: FieldError): TChecked<T> {
  return Type.Unsafe<unknown>({ ...schema, [ERROR_KEYWORD]: error }) as TChecked<T>;
}

/**
 * The decimals of money (`src/money`): `'x-decimal': 'money'` (at most two decimals, 0 to
 * numeric(12,2)), `'quantity'` (positive, three decimals) or `'rate'` (0 to 100, two decimals), a
 * decimal string or a JSON number as its parser reads it.
 */
const DECIMALS: Record<string, (value: unknown) => unknown> = { money: parseMoney, quantity: parseQuantity, rate: parseRate };

// `unicode: false`: a length is JavaScript's (UTF-16 units), as the rules always counted it;
// Ajv calls the option deprecated, and says so once: that one line is left out.
const logger = {
  log: console.log,
  error: console.error,
  warn: (...args: unknown[]) => String(args[0]).startsWith('DEPRECATED: option unicode') || console.warn(...args),
};
const ajv = new Ajv({
  allErrors: false,
  coerceTypes: false,
  strictTypes: false,
  unicode: false,
  logger,
  formats: { date: (text: string) => parseIsoDate(text) !== null },
});
addTextKeyword(ajv);
ajv.addKeyword({ keyword: 'x-decimal', schemaType: 'string', validate: (kind: string, data: unknown) => DECIMALS[kind]!(data) !== null });

const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(field: TSchema): ValidateFunction {
  let validate = compiled.get(field);
  if (!validate) {
    validate = ajv.compile(ownSchema(field as Record<string, unknown>));
    compiled.set(field, validate);
  }
  return validate;
}

/**
 * `value` when it holds to the field's schema, else the field's error (or `refusal`'s, for an
 * error that says where the value was).
 */
export function checkField<T extends TSchema>(field: TChecked<T>, value: unknown, refusal?: () => AppError): Static<T> {
  const validate = validatorOf(field);
  if (validate(value)) return value as Static<T>;
  if (refusal) throw refusal();
  throw fieldRefusal(field, validate.errors?.[0]?.keyword);
}

/**
 * The field's error (its message for `keyword`, if it gives one), for a check its rules make
 * beyond its schema that answers the same (a date against today).
 */
export function fieldRefusal(field: TChecked<TSchema>, keyword = ''): AppError {
  const error = (field as Record<string, unknown>)[ERROR_KEYWORD] as FieldError;
  return new AppError(error.status ?? 400, error.code, error.messages?.[keyword] ?? error.message);
}

/** `UUID_PATTERN` (src/http/input.ts) as a schema's `pattern`, which has no flags. */
export const UUID_SCHEMA_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** An amount typed in a body, as `parseMoney` reads it: 400 `invalid_amount` otherwise. */
export const CheckedMoney = Checked(
  Type.Union([Type.String(), Type.Number()], {
    'x-decimal': 'money',
    description: 'an amount in euros: a decimal string or a number, at most two decimals, at least 0 (e.g. "642.40")',
    examples: ['642.40', 12.5],
  }),
  INVALID_AMOUNT,
);

/** A payroll month typed in a body: 400 `invalid_period` when malformed (`src/format/calendar.ts`). */
export const CheckedPeriod = Checked(Type.String({ pattern: PERIOD_PATTERN, description: 'YYYY-MM, from three years back to one year ahead' }), INVALID_PERIOD);

/**
 * A body's payroll month, as `requirePayrollPeriod` reads it: 400 `missing_period`, or
 * `invalid_period` (malformed, or outside the months the payroll accepts).
 */
export function checkPayrollPeriod(raw: unknown): string {
  if (absent(raw)) throw fieldErrors.missing('period', 'La période');
  return inPayrollWindow(checkField(CheckedPeriod, raw));
}
