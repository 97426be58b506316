/**
 * Body fields checked by their module's rules rather than at the edge. A route answers its
 * errors in a fixed order (a missing field before a wrong one that follows it, an unknown id in
 * the path before any field, a date checked against today before the next field), which one
 * validation of the whole body before the handler cannot keep. So such a field's schema carries
 * `'x-error': { code, message }`: the rules check the value against that schema at their turn
 * (`checkField`, src/schemas/fields.ts) and answer that error; the edge validator leaves the
 * field alone, but for the keywords `x-error.edge` names, which it checks as any other.
 */

/** The keyword of a field its rules check, and the error they answer when it breaks its schema. */
export const ERROR_KEYWORD = 'x-error';

export interface FieldError {
  code: string;
  /** The French sentence; `messages` may give another one per schema keyword (`type`, `maxLength`…). */
  message: string;
  /** 400 unless said. */
  status?: number;
  messages?: Readonly<Record<string, string>>;
  /** The keywords of the node the edge validator still checks (e.g. `type` and `items` of a list). */
  edge?: readonly string[];
}

/** Keys whose values are data, not schemas. */
const DATA_KEYS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * A copy of `schema` as the edge validates it: each node with `x-error` keeps only its `edge`
 * keywords (none: any value), whose own nodes are reduced the same way.
 */
export function edgeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(edgeSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const error = node[ERROR_KEYWORD] as FieldError | undefined;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === ERROR_KEYWORD || (error && !error.edge?.includes(key))) continue;
    copy[key] = DATA_KEYS.has(key) ? value : edgeSchema(value);
  }
  return copy;
}

/** The keywords that hold the schemas of what a list or an object contains. */
const CONTENT_KEYS = new Set(['items', 'properties', 'required', 'additionalProperties', 'patternProperties']);

/**
 * A checked field's own schema, as its rules check it: without what it contains (the items of a
 * list, the properties of an object), which the rules check item by item, each at its turn.
 */
export function ownSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== ERROR_KEYWORD && !CONTENT_KEYS.has(key)));
}
