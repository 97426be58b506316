/**
 * `input.ts`'s rule on every text a request carries, as one rule rather than route by route:
 * every string of every body schema (an Ajv keyword added when the schema is
 * compiled), every query parameter and every string of a body no schema describes (a hook),
 * and every key of a list cursor (`list.ts`). A text that breaks it is 400 `invalid_<field>`,
 * the field named as the schema errors name it (`dates[2].nature` → `nature`).
 *
 * A field that may hold several lines says so in its schema: `Type.String({ 'x-text': 'multiline' })`
 * (a line feed and a tab then pass).
 *
 * Bodies are validated without type coercion (a note `{ "text": 42 }` is 400 `invalid_text`,
 * not the text "42"); query strings and path parameters, which are text by nature, keep it.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { Ajv } from 'ajv';
import type { FastifyInstance, FastifyRequest, FastifySchemaValidationError, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { edgeSchema } from './checked-fields.ts';
import { compiledOnce } from './compiled-once.ts';
import { AppError, fieldErrors } from './errors.ts';
import { hasUnsafeCharacters, type TextKind } from './input.ts';

/**
 * `GET` and `POST /api/access` are answered to the letter of docs/access.md, in its order
 * (`missing_email` before anything else of the body): the service applies the same rule to
 * the one free text, the first name, after the access rules' own checks. Every other route gets the
 * rule here.
 */
export function isSpecAccessRoute(url: string | undefined): boolean {
  return url === '/api/access';
}

/** The schema keyword: `'line'` (what the walk adds to every string) or `'multiline'`. */
export const TEXT_KEYWORD = 'x-text';

export function addTextKeyword(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: TEXT_KEYWORD,
    type: 'string',
    schemaType: 'string',
    validate: (kind: TextKind, data: string) => !hasUnsafeCharacters(data, kind),
  });
}

function isStringSchema(schema: Record<string, unknown>): boolean {
  const { type } = schema;
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}

/** A copy of `schema` whose every string schema carries the keyword (`'line'` unless it says otherwise). */
export function withTextRule(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withTextRule);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    // `const`, `enum`, `default` and `examples` hold data, not schemas.
    copy[key] = key === 'const' || key === 'enum' || key === 'default' || key === 'examples' ? value : withTextRule(value);
  }
  if (isStringSchema(copy) && copy[TEXT_KEYWORD] === undefined) copy[TEXT_KEYWORD] = 'line';
  return copy;
}

type ValidatorFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']>;
/** What a compiler gets for each part of each route (`@fastify/ajv-compiler`'s `RouteDefinition`). */
interface RouteDefinition {
  schema: unknown;
  method: string;
  url: string;
  httpPart: string;
}
type RouteValidator = (route: RouteDefinition) => unknown;

/**
 * Fastify's validator factory (`schemaController.compilersFactory.buildValidator`): Fastify's
 * own Ajv compiler, twice: bodies without type coercion, the rest with Fastify's (`"42"` is a
 * number in a query string); both know the keyword, and a body schema gets it on every string
 * but those of the fields its rules check (`checked-fields.ts`), left to them. Each schema is
 * compiled once a process (`compiled-once.ts`).
 */
const textRuleValidatorsOnce = compiledOnce(
  ((externalSchemas: Record<string, unknown>, options: { customOptions?: Record<string, unknown>; plugins?: unknown[] }) => {
    const pool = AjvCompiler();
    const plugins = [...(options?.plugins ?? []), addTextKeyword];
    const build = (coerceTypes: false | 'array') =>
      (pool as unknown as (e: unknown, o: unknown) => RouteValidator)(externalSchemas, {
        ...options,
        customOptions: { ...options?.customOptions, coerceTypes },
        plugins,
      });
    const bodies = build(false);
    const others = build('array');
    return (route: RouteDefinition) =>
      route.httpPart === 'body'
        ? bodies({ ...route, schema: isSpecAccessRoute(route.url) ? route.schema : withTextRule(edgeSchema(route.schema)) })
        : others(route);
  }) as unknown as ValidatorFactory,
  (route) => `${route.httpPart} ${route.httpPart === 'body' && isSpecAccessRoute(route.url)} ${JSON.stringify(route.schema)}`,
);

export function textRuleValidators(): ValidatorFactory {
  return textRuleValidatorsOnce;
}

/** The innermost property an error path names (`/dates/2/nature` → `nature`), or ''. */
export function lastProperty(instancePath: string): string {
  const names = instancePath.split('/').filter((segment) => segment !== '' && !/^\d+$/.test(segment));
  return names.at(-1) ?? '';
}

/** A field name fit for an error code, else the part it was in (`query`, `body`). */
function codeName(name: string, part: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) ? name : part;
}

/** 400 `invalid_<field>` for a text that breaks the rule (a search: README's `invalid_q` and its sentence). */
export function unsafeTextError(field: string, part: string): AppError {
  const name = codeName(field, part);
  if (name === 'q') return new AppError(400, 'invalid_q', 'La recherche contient des caractères non autorisés');
  return fieldErrors.invalid(name, `Le champ ${name}`);
}

/** The answer to a schema error of the keyword, or null when the error is another. */
export function textRuleError(errors: readonly FastifySchemaValidationError[] | undefined, part: string): AppError | null {
  const first = errors?.[0];
  if (!first || first.keyword !== TEXT_KEYWORD) return null;
  return unsafeTextError(lastProperty(first.instancePath), part);
}

/** The first string of a parsed body that breaks the rule, with its innermost key, or null. */
function unsafeIn(value: unknown, key: string, depth = 0): string | null {
  if (typeof value === 'string') return hasUnsafeCharacters(value) ? key : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = unsafeIn(item, key, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  if (Buffer.isBuffer(value)) return null;
  for (const [name, item] of Object.entries(value)) {
    if (hasUnsafeCharacters(name)) return key;
    const found = unsafeIn(item, name, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** The rule on what no schema describes: every query parameter (name and value), and a body without a schema. */
export function checkRequestText(request: FastifyRequest): void {
  if (isSpecAccessRoute(request.routeOptions.url)) return;
  const query = request.query;
  if (query && typeof query === 'object') {
    for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      if (hasUnsafeCharacters(name) || values.some((v) => typeof v === 'string' && hasUnsafeCharacters(v))) throw unsafeTextError(name, 'query');
    }
  }
  const schema = request.routeOptions.schema as { body?: unknown } | undefined;
  if (schema?.body === undefined && request.body !== undefined) {
    const found = unsafeIn(request.body, 'body');
    if (found !== null) throw unsafeTextError(found, 'body');
  }
}

/**
 * The hook: after the route's gate (who may call comes first), before validation.
 * Register after the gate plugin.
 */
export default fp(
  async function textRulePlugin(fastify: FastifyInstance) {
    fastify.addHook('preValidation', async (request) => checkRequestText(request));
  },
  { name: 'text-rule', dependencies: ['route-gates'] },
);
