/**
 * What never reaches the logs: session cookies, tokens, authorization headers, in any
 * `headers` object logged; and a database error's `detail` and `params`, which carry the
 * values of the statement ("Key (email)=(…) already exists", an e-mail address, a note's text).
 * A request or a reply is logged through Fastify's serializers (method, url, host, addresses;
 * status code), which write no header at all, and pino redacts what a serializer returned:
 * paths under `req` or `res` would match nothing, yet cost every request line a redaction pass.
 * test/ops/server.test.ts sends each secret; test/http/log-redaction.test.ts logs a database error.
 */
export const LOG_REDACTION = {
  paths: ['headers.cookie', 'headers.authorization', 'headers["x-api-key"]', 'headers["set-cookie"]', 'err.detail', 'err.params'],
  censor: '[redacted]',
};
