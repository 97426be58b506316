/**
 * How every error becomes an answer: docs/api.md's `{ error, message }` in French, or the plain
 * texts it gives for 401 and 403. Used by `app.ts` for Fastify's error handler, its router
 * errors and Node's HTTP parser errors, so that no layer answers in another shape.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, errorBody } from './errors.ts';
import { httpErrors } from './http.errors.ts';
import { textRuleError } from './text-rule.ts';

/**
 * The request stream's own error when its client resets the connection mid-body (Node's
 * `aborted`, code ECONNRESET, as a database connection reset is): told apart by the request
 * itself having been aborted.
 */
function isClientAbort(error: FastifyError, request: FastifyRequest): boolean {
  return error.code === 'ECONNRESET' && (request.raw.aborted || request.raw.destroyed);
}

/** The known error a failure stands for; anything unknown is logged and becomes a 500. */
function toAppError(error: FastifyError | AppError, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  // Fastify's own request validation only: another error may carry `validation` too (the
  // e-invoice library's), and is an internal failure, a 500 with its log line.
  if (error.code === 'FST_ERR_VALIDATION' && error.validation)
    return textRuleError(error.validation, error.validationContext ?? 'body') ?? httpErrors.invalidRequest(error.message);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return httpErrors.payloadTooLarge(request.routeOptions.bodyLimit);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return httpErrors.unsupportedMediaType();
  if (error.statusCode === 429) return httpErrors.rateLimited();
  if (isClientAbort(error, request)) {
    // The client went away mid-body: nobody reads the answer, and nothing failed on our side.
    request.log.info({ code: error.code }, 'client aborted the request');
    return httpErrors.badRequest(400);
  }
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return httpErrors.serviceUnavailable();
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return httpErrors.badRequest(error.statusCode);
  request.log.error({ err: error }, 'unexpected failure');
  return httpErrors.serverError();
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  if (error.plainText !== undefined) return reply.code(error.status).type('text/plain; charset=utf-8').send(error.plainText);
  return reply.code(error.status).send({ ...errorBody(error.code, error.userMessage), ...error.details });
}

/** Fastify's `setErrorHandler`. */
export function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, toAppError(error, request));
}

/** Errors Fastify's router raises before any route or error handler runs (Fastify's `frameworkErrors`). */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const known = { FST_ERR_BAD_URL: httpErrors.badUrl, FST_ERR_MAX_PARAM_LENGTH: httpErrors.uriTooLong }[error.code];
  if (!known) reply.log.error({ err: error }, 'unexpected router failure');
  sendError(reply, (known ?? httpErrors.serverError)());
}

/** What Node's HTTP parser refuses before Fastify sees a request (Fastify's default answers in English). */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A connection reset or a destroyed socket: nobody is left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = { ERR_HTTP_REQUEST_TIMEOUT: httpErrors.requestTimeout, HPE_HEADER_OVERFLOW: httpErrors.headersTooLarge }[error.code ?? ''];
  const { status, code, userMessage } = (known ?? httpErrors.malformedHttp)();
  const body = JSON.stringify(errorBody(code, userMessage));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
