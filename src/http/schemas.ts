/** Schemas shared by every route. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { fieldErrors } from './errors.ts';
import { lastProperty, textRuleError } from './text-rule.ts';

/** `{ error, message? }`. */
export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    message: Type.Optional(Type.String()),
    field: Type.Optional(
      Type.String({
        description: 'the input the error is about, when a body or query has several of one kind (e.g. `dates[2].date`, `from`)',
        examples: ['dates[2].date'],
      }),
    ),
  },
  { $id: 'ErrorBody', description: 'Every JSON error' },
);

/** `/{id}` of a module's object; an id that is not a UUID names nothing (404). */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** The plain-text 401 `Unauthorized` and 403 `Forbidden`. */
export const PlainText = Type.String({ description: 'plain text: `Unauthorized` or `Forbidden`' });

/** A route whose path names one resource (`/…/:id`), with what else it takes. */
export type IdRoute<Extra = object> = { Params: Static<typeof IdParams> } & Extra;

/**
 * The error answers of a route, for its OpenAPI `response`: 400 and 404 in the error shape, 401
 * plain text and 403 plain or in the error shape, and each status of `more` (409, 413…)
 * in the error shape.
 * @example response: { 200: Contract, ...errorResponses(409) }
 */
export function errorResponses(...more: number[]) {
  return {
    400: ErrorBody,
    401: PlainText,
    403: Type.Union([ErrorBody, PlainText]),
    404: ErrorBody,
    ...Object.fromEntries(more.map((status) => [status, ErrorBody])),
  };
}

/** `{ ok: true, message }`: the answer of a change that returns nothing else. */
export const OkMessage = Type.Object({ ok: Type.Literal(true), message: Type.String() });

/**
 * Turns a schema violation into the field codes of docs/modules.md: a required property absent gives
 * `missing_<property>`, any other violation `invalid_<property>` (the innermost property
 * named, `dates[2].nature` → `invalid_nature`). Money fields answer `invalid_amount` whatever
 * their name. Module routes install it with `useFieldErrors(fastify)`.
 */
export function fieldErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const unsafe = textRuleError(errors, dataVar);
  if (unsafe) return unsafe;
  const [first] = errors;
  const property = first?.keyword === 'required' ? String(first.params.missingProperty ?? '') : lastProperty(first?.instancePath ?? '');
  if (!first || !property || dataVar !== 'body') {
    return Object.assign(new Error(`${dataVar}${first?.instancePath ?? ''} ${first?.message ?? 'invalid'}`), { statusCode: 400 });
  }
  if (first.keyword === 'required') return fieldErrors.missing(property, `Le champ ${property}`);
  return MONEY_FIELDS.has(property) ? fieldErrors.invalid('amount', 'Le montant') : fieldErrors.invalid(property, `Le champ ${property}`);
}

/** Property names that hold money (a wrong amount is `invalid_amount`). */
const MONEY_FIELDS = new Set(['amount', 'monthly_gross', 'gross', 'net_to_pay', 'unit_price']);

/** Every route declared in this plugin after the call reports body errors by field (see above). */
export function useFieldErrors(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    route.schemaErrorFormatter ??= fieldErrorFormatter;
  });
}

/** The answer of a CSV export (`format/csv.ts`), as OpenAPI documents it. */
export const CsvFile = Type.String({
  description:
    "UTF-8 with a BOM, ';' separators, CRLF, a French header row, amounts 1234,50, dates JJ/MM/AAAA; text cells starting with = + - @ (or a tab, a CR) prefixed with '",
});
