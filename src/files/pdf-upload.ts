/**
 * PDF upload bodies: a route opts in with `config: { pdfUpload: true }` and gets
 * the raw body as a `Buffer`, up to 10 MiB (413 past it), refused with 415 `invalid_pdf` unless
 * it starts with `%PDF-`. Every other route keeps the 64 KiB JSON body: `application/pdf` there
 * is 415 `unsupported_media_type`, as any other type.
 *
 * ```ts
 * fastify.put<{ Body: Buffer }>('/api/staff/contrats/:id/signed-pdf',
 *   { config: { gate: 'staff', pdfUpload: true }, schema }, async (request) => store(request.body));
 * ```
 */
import type { FastifyInstance } from 'fastify';
import { fileErrors } from './files.errors.ts';

export const PDF_BODY_LIMIT = 10 * 1024 * 1024;
const PDF_MAGIC = Buffer.from('%PDF-');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route takes an `application/pdf` body of up to 10 MiB (see src/files/pdf-upload.ts). */
    pdfUpload?: boolean;
  }
}

export function isPdf(body: unknown): body is Buffer {
  return Buffer.isBuffer(body) && body.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC);
}

/** Registers the parser and the checks; call it on the root instance before any route. */
export function registerPdfUploads(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (route.config?.pdfUpload) route.bodyLimit = PDF_BODY_LIMIT;
  });

  fastify.addContentTypeParser('application/pdf', { parseAs: 'buffer' }, (request, body, done) => {
    if (!request.routeOptions.config.pdfUpload) return done(fileErrors.notAnUpload());
    done(null, body);
  });

  // Checked after the route's gate (decided on arrival, before the body is even read): a caller
  // without the right learns nothing about the body, 401/403 come first.
  fastify.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.pdfUpload && !isPdf(request.body)) throw fileErrors.invalidPdf();
  });
}
