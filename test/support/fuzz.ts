/** For the fuzz tests of the routes: any JSON value, and the property "a 4xx or a success, never a 5xx". */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';

export type Fuzzed = null | boolean | number | string | string[] | Record<string, string>;

/** Any JSON value, with `samples` (the shapes the routes read most likely to appear) and `more` among the choices. */
export function anyValue(samples: string[], ...more: fc.Arbitrary<Fuzzed>[]): fc.Arbitrary<Fuzzed> {
  return fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1e6, max: 1e13 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 40 }),
    fc.constantFrom(...samples),
    fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    ...more,
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  );
}

export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  payload?: object;
  /** The `cookie` header, when not the caller's default. */
  cookie?: string;
}

/** Sends each request (with `cookie` unless it names its own) and checks that none answers 5xx. */
export async function assertNo5xx(app: FastifyInstance, cookie: string, requests: FuzzRequest[]): Promise<void> {
  for (const request of requests) {
    const { cookie: own, ...inject } = request;
    const res = await app.inject({ ...inject, headers: { cookie: own ?? cookie } });
    assert.ok(res.statusCode < 500, `${request.method} ${request.url} ${JSON.stringify(request.payload)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  }
}

/** Checks `predicate` on `numRuns` draws of `arbitraries`, and that it did run that many times. */
export async function assertProperty<Ts extends [unknown, ...unknown[]]>(
  numRuns: number,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...values: Ts) => Promise<void>,
): Promise<void> {
  let runs = 0;
  const counted = async (...values: Ts) => {
    runs++;
    await predicate(...values);
  };
  await fc.assert(fc.asyncProperty(...([...arbitraries, counted] as unknown as Parameters<typeof fc.asyncProperty<Ts>>)), { numRuns });
  assert.equal(runs, numRuns);
}
