/**
 * Fastify compiles every route's schemas (Ajv validators, fast-json-stringify serializers) for
 * each app it builds, about 0.4 s an app. A process that builds several apps (a test file builds
 * dozens; the server, one) compiles each schema once with these factories, which keep what they
 * compiled keyed by all a compiled function depends on: the shared schemas, the compiler's
 * options and the route's schema, as JSON (each app gets its own copy of a schema).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

// biome-ignore lint/suspicious/noExplicitAny: Fastify's two factories type their arguments each their way.
type CompilerFactory = (externalSchemas: any, options?: any) => (route: any) => unknown;
type RouteOf<F extends CompilerFactory> = Parameters<ReturnType<F>>[0];

export function compiledOnce<F extends CompilerFactory>(factory: F, routeKey: (route: RouteOf<F>) => string): F {
  const compiled = new Map<string, unknown>();
  return ((externalSchemas: unknown, options?: unknown) => {
    let compile: ((route: RouteOf<F>) => unknown) | undefined;
    // Functions (Ajv plugins) are left out by JSON; they are the same in every app.
    const prefix = JSON.stringify([externalSchemas, options]);
    return (route: RouteOf<F>) => {
      const key = `${prefix}\n${routeKey(route)}`;
      let compiledFunction = compiled.get(key);
      if (compiledFunction === undefined) {
        compile ??= factory(externalSchemas, options);
        compiledFunction = compile(route);
        compiled.set(key, compiledFunction);
      }
      return compiledFunction;
    };
  }) as F;
}

/** Fastify's own response serializers, each compiled once a process. */
export const serializersOnce = compiledOnce(SerializerSelector(), (route) => JSON.stringify(route.schema));
