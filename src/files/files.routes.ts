/** `GET /files/:id?exp=&sig=`: a stored file by signed URL, without a session. */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { attachment } from '../http/content-disposition.ts';
import { ErrorBody } from '../http/schemas.ts';
import { fileErrors } from './files.errors.ts';
import { verifyFileUrl } from './signed-url.ts';

const FileParams = Type.Object({ id: Type.String() });
// Untyped for the validator: a missing or malformed exp/sig is a changed link, 403 like any other.
const SignedQuery = Type.Object({
  exp: Type.Optional(Type.Unsafe<string>({ description: 'expiry, unix seconds' })),
  sig: Type.Optional(Type.Unsafe<string>({ description: 'base64url HMAC-SHA256 of `{id}:{exp}`' })),
});

export default async function filesRoutes(fastify: FastifyInstance, options: { signingKey: Buffer }): Promise<void> {
  fastify.get<{ Params: Static<typeof FileParams>; Querystring: Static<typeof SignedQuery> }>(
    '/files/:id',
    {
      config: { public: true },
      schema: {
        tags: ['files'],
        summary: 'A stored file by signed URL (valid 5 minutes, no session needed)',
        params: FileParams,
        querystring: SignedQuery,
        response: { 200: Type.String({ format: 'binary', description: 'the file' }), 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      // The signature first: an unsigned request never reaches the database.
      if (!verifyFileUrl(options.signingKey, id, request.query.exp, request.query.sig)) throw fileErrors.invalidSignature();
      const file = await fastify.files.get(id);
      if (!file) throw fileErrors.notFound();
      return reply
        .type(file.contentType)
        .header('content-disposition', attachment(file.filename))
        .header('cache-control', 'private, no-store')
        .send(file.content);
    },
  );
}
