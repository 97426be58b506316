/**
 * On every route the OpenAPI description lists: a NUL, a bidi override and a value of
 * the wrong type in every free-text field of every body, a NUL and a bidi override in every
 * query parameter, a NUL in every list cursor (the pages' too), and large and deep bodies from
 * nobody to every gated route. Each is a 4xx in docs/api.md's shape (`{ error, message? }`, or the
 * plain 401), never a 500; the text rule's answer is `invalid_<field>`, a cursor's
 * `invalid_cursor`, an anonymous caller's 401.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { build } from '../helper.ts';
import { createOrg, signedIn } from '../support/fixtures.ts';
import { count } from './counts.ts';
import { isSpecAccessRoute } from '../../src/http/text-rule.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  'x-text'?: string;
};

interface Operation {
  method: string;
  path: string;
  security?: unknown[];
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ANY_UUID = '00000000-0000-4000-8000-000000000000';
const NUL = 'a\u0000b';
const BIDI = 'abc\u202edcba';

function typesOf(schema: Schema): string[] {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.flatMap(typesOf);
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** A free-text field: a string and nothing else that is not null (not an amount's string-or-number). */
function isFreeText(schema: Schema): boolean {
  const types = typesOf(schema).filter((type) => type !== 'null');
  return types.length > 0 && types.every((type) => type === 'string') && !schema.enum;
}

/** A value the schema accepts, for a required field beside the one tried. */
function plausible(schema: Schema): unknown {
  const types = typesOf(schema).filter((type) => type !== 'null');
  if (schema.enum) return schema.enum[0];
  if (types.includes('string')) return schema.format === 'uuid' ? ANY_UUID : 'x';
  if (types.includes('number') || types.includes('integer')) return 1;
  if (types.includes('boolean')) return true;
  if (types.includes('array')) return [];
  if (types.includes('object')) return {};
  return 'x';
}

interface Field {
  /** From the body's root: property names and `0` for an array's item. */
  path: (string | 0)[];
  name: string;
  /** Checked by its module's rules at their turn (`x-error`), after an id in the path is found. */
  byRules: boolean;
}

/** Every free-text field of an object schema, nested objects and arrays of objects included. */
function freeTextFields(schema: Schema, prefix: (string | 0)[] = []): Field[] {
  const fields: Field[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (isFreeText(property)) fields.push({ path: [...prefix, name], name, byRules: (property as Record<string, unknown>)['x-error'] !== undefined });
    const object = [property, ...(property.anyOf ?? [])].find((s) => s.properties);
    if (object) fields.push(...freeTextFields(object, [...prefix, name]));
    const items = [property, ...(property.anyOf ?? [])].find((s) => s.items?.properties)?.items;
    if (items) fields.push(...freeTextFields(items, [...prefix, name, 0]));
  }
  return fields;
}

/** A body with the schema's required fields and `value` at `path`. */
function bodyWith(schema: Schema, path: (string | 0)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (head === 0) return [bodyWith(schema.items ?? {}, rest, value)];
  const body: Record<string, unknown> = {};
  for (const name of schema.required ?? []) body[name] = plausible(schema.properties?.[name] ?? {});
  const property = schema.properties?.[head!] ?? {};
  const inner = [property, ...(property.anyOf ?? [])].find((s) => (rest[0] === 0 ? s.items : s.properties)) ?? property;
  body[head!] = bodyWith(inner, rest, value);
  return body;
}

function assertShape(res: LightMyRequestResponse, what: string): void {
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  if (res.statusCode === 401 || (res.statusCode === 403 && !String(res.headers['content-type']).includes('json'))) return;
  assert.match(String(res.headers['content-type']), /^application\/json/, what);
  const body = res.json() as { error?: unknown; message?: unknown };
  assert.equal(typeof body.error, 'string', what);
  assert.ok(body.message === undefined || typeof body.message === 'string', what);
}

describe('every field, parameter and cursor of every route', () => {
  it('should answer 4xx in the documented shape, never 500', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
    };
    const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
    );
    assert.ok(operations.length > 50, `${operations.length} operations`);
    const urlOf = (path: string) => path.replace(/\{[^}]+\}/g, ANY_UUID);
    // Staff pass every gate; the hint names the organization of a client route.
    const as = { cookie: staff.cookie, 'x-active-org-id': orgId };
    const send = (method: string, url: string, payload?: unknown, headers: Record<string, string> = as) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
        ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      });
    const tally = { fields: 0, texts: 0, wrongTypes: 0, queries: 0, cursors: 0, gated: 0 };

    for (const operation of operations) {
      const url = urlOf(operation.path);
      const what = `${operation.method} ${operation.path}`;
      // Bodies: a NUL, a bidi override and a number in every free-text field.
      const schema = operation.requestBody?.content['application/json']?.schema;
      if (schema && operation.method !== 'GET') {
        for (const field of freeTextFields(schema)) {
          tally.fields++;
          for (const value of [NUL, BIDI]) {
            const res = await send(operation.method, url, bodyWith(schema, field.path, value));
            assertShape(res, `${what} ${field.path.join('.')}=${JSON.stringify(value)}`);
            // A field its rules check is answered at their turn: an unknown id in the path, or a
            // field they check before it, may be answered first. Still a 4xx, never a 500.
            if (field.byRules) assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${what} ${field.path.join('.')}: ${res.body}`);
            if (field.byRules && (res.statusCode !== 400 || res.json().error !== `invalid_${field.name}`)) {
              tally.texts++;
              continue;
            }
            assert.equal(res.statusCode, 400, `${what} ${field.path.join('.')}: ${res.body}`);
            // The access routes answer in their documented order: an empty e-mail first.
            const expected = isSpecAccessRoute(operation.path) ? [`invalid_${field.name}`, 'missing_email'] : [`invalid_${field.name}`];
            assert.ok(expected.includes(res.json().error), `${what} ${field.path.join('.')}: ${res.body}`);
            tally.texts++;
          }
          const wrong = await send(operation.method, url, bodyWith(schema, field.path, 42));
          assertShape(wrong, `${what} ${field.path.join('.')}=42`);
          if (field.byRules) assert.ok(wrong.statusCode >= 400 && wrong.statusCode < 500, `${what} ${field.path.join('.')}=42: ${wrong.body}`);
          else {
            assert.equal(wrong.statusCode, 400, `${what} ${field.path.join('.')}=42: ${wrong.body}`);
            assert.match(wrong.json().error, /^invalid_/, `${what} ${field.path.join('.')}=42`);
          }
          tally.wrongTypes++;
        }
      }
      // Query parameters: a NUL and a bidi override in each.
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue;
        for (const value of [NUL, BIDI]) {
          const res = await send(operation.method, `${url}?${parameter.name}=${encodeURIComponent(value)}`);
          assertShape(res, `${what} ?${parameter.name}`);
          assert.equal(res.statusCode, 400, `${what} ?${parameter.name}: ${res.body}`);
          assert.equal(res.json().error, `invalid_${parameter.name}`, `${what} ?${parameter.name}`);
          tally.queries++;
        }
        // Every list cursor: a NUL in a text key, at every place a key can be.
        if (parameter.name === 'cursor') {
          for (const keys of [[NUL], ['2027-01-01', NUL], [NUL, ANY_UUID], ['x', 'y', NUL]]) {
            const cursor = Buffer.from(JSON.stringify(keys)).toString('base64url');
            const res = await send(operation.method, `${url}?cursor=${cursor}`);
            assertShape(res, `${what} cursor ${JSON.stringify(keys)}`);
            assert.equal(res.json().error, 'invalid_cursor', `${what} cursor ${JSON.stringify(keys)}: ${res.body}`);
            tally.cursors++;
          }
        }
      }
      // Nobody: a large and a deep body to every gated route that takes one, answered 401.
      if (operation.security && operation.method !== 'GET' && operation.method !== 'DELETE') {
        const pdf = operation.requestBody?.content['application/pdf'] !== undefined;
        const headers: Record<string, string> = { 'content-type': pdf ? 'application/pdf' : 'application/json' };
        for (const payload of ['['.repeat(1024 * 1024), `{"a":"${'x'.repeat(pdf ? 11 * 1024 * 1024 : 5 * 1024 * 1024)}"}`]) {
          const res = await app.inject({ method: operation.method as 'POST', url, headers, payload });
          assertShape(res, `${what} anonymous`);
          assert.equal(res.statusCode, 401, `${what} anonymous ${payload.length} bytes: ${res.body.slice(0, 200)}`);
          assert.equal(res.body, 'Unauthorized');
          tally.gated++;
        }
      }
    }

    // The pages' lists: a NUL in each cursor, a NUL in a search.
    const pages = [
      '/contrats?q=',
      '/contrats?cursor=',
      '/factures?cursor_factures=',
      '/factures?cursor_appels=',
      '/factures?cursor_virements=',
      '/staff/facturation?cursor=',
      '/staff/contrats?q=',
      '/staff/contrats?cursor=',
      '/staff/organisations?q=',
      '/staff/organisations?cursor=',
      '/staff/cotisations?cursor=',
    ];
    for (const page of pages) {
      for (const keys of [[NUL], ['2027-01-01', NUL]]) {
        const value = page.endsWith('q=') ? encodeURIComponent(NUL) : Buffer.from(JSON.stringify(keys)).toString('base64url');
        const res = await app.inject({ method: 'GET', url: `${page}${value}`, headers: { ...as, accept: 'text/html' } });
        assert.equal(res.statusCode, 400, `${page}${value}`);
        assert.match(String(res.headers['content-type']), /^text\/html/, page);
        tally.cursors++;
      }
    }

    const cases = tally.texts + tally.wrongTypes + tally.queries + tally.cursors + tally.gated;
    count('cases', cases);
    console.log(`input hardening: ${operations.length} operations, ${tally.fields} free-text fields, ${cases} cases`, tally);
    assert.ok(tally.fields > 30 && tally.cursors > 30 && tally.gated > 20, JSON.stringify(tally));
  });
});
