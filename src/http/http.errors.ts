/**
 * The catalogue of errors the HTTP layer answers itself, before or around any feature: the
 * router, Node's HTTP parser, validation, body limits, rate limits, an unreachable database.
 * One status, code and French message per situation, like each feature's `*.errors.ts`.
 */
import { AppError } from './errors.ts';

/** A body limit as the 413 message writes it: `64 Kio`, `10 Mio` (routes may raise the limit). */
function sizeFr(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} Mio` : `${Math.round(bytes / 1024)} Kio`;
}

export const httpErrors = {
  // The router (Fastify's `frameworkErrors`).
  badUrl: () => new AppError(400, 'bad_url', "L'adresse demandée est mal formée."),
  uriTooLong: () => new AppError(414, 'uri_too_long', "L'adresse demandée est trop longue."),
  // Node's HTTP parser (`clientErrorHandler`).
  requestTimeout: () => new AppError(408, 'request_timeout', 'La requête a mis trop de temps à arriver.'),
  headersTooLarge: () => new AppError(431, 'headers_too_large', 'Les en-têtes de la requête sont trop volumineux.'),
  malformedHttp: () => new AppError(400, 'bad_request', 'Requête HTTP mal formée.'),
  // Fastify's parsing and validation.
  invalidRequest: (detail: string) => new AppError(400, 'invalid_request', `Requête invalide : ${detail}`),
  payloadTooLarge: (limitBytes: number) => new AppError(413, 'payload_too_large', `Requête trop volumineuse (${sizeFr(limitBytes)} au plus).`),
  jsonTooDeep: (maxDepth: number) => new AppError(400, 'json_too_deep', `Le JSON est imbriqué trop profondément (${maxDepth} niveaux au plus).`),
  unsupportedMediaType: () => new AppError(415, 'unsupported_media_type', 'Le corps doit être du JSON.'),
  badRequest: (status: number) => new AppError(status, 'bad_request', 'Requête invalide.'),
  /** With `Retry-After` when the limit is ours; `@fastify/rate-limit` sets that header itself. */
  rateLimited: (retryAfterSeconds?: number) => new AppError(429, 'rate_limited', 'Trop de demandes : réessayez dans un moment.', undefined, retryAfterSeconds),
  // No route.
  notFound: () => new AppError(404, 'not_found', 'Ressource introuvable.'),
  // The server's side. docs/api.md: 500 server_error with a message, never the underlying (database) text.
  serviceUnavailable: () => new AppError(503, 'service_unavailable', 'Service momentanément indisponible, réessayez.'),
  serverError: () => new AppError(500, 'server_error', 'Erreur interne du serveur.'),
};
