/**
 * The file store as `fastify.files`, its download route and PDF upload bodies.
 * Files live in the database unless `STORAGE_URL` names an S3 bucket.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createFileStore, type FileStore, SWEEP_GRACE_MS } from './file-store.ts';
import { sharedSecret } from './files.repository.ts';
import filesRoutes from './files.routes.ts';
import { registerPdfUploads } from './pdf-upload.ts';
import type { S3Blobs } from './s3-blobs.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';

/**
 * The file store `config` names, for the server and for a command that stores files (seed-demo);
 * `blobs.close()` ends its S3 client.
 */
export async function openFileStore(db: Database, config: Config): Promise<{ files: FileStore; blobs: S3Blobs | null; signingKey: Buffer }> {
  const signingKey = config.fileUrlSecret !== null ? Buffer.from(config.fileUrlSecret) : await sharedSecret(db, 'file_url_key');
  // The S3 client (about 0.4 s to load) is loaded only when a bucket is named.
  const blobs = config.storage.kind === 's3' ? (await import('./s3-blobs.ts')).createS3Blobs(config.storage) : null;
  return { files: createFileStore({ db, blobs, signingKey, publicUrl: config.publicUrl }), blobs, signingKey };
}

declare module 'fastify' {
  interface FastifyInstance {
    files: FileStore;
  }
}

export default fp(
  async function filesPlugin(fastify: FastifyInstance) {
    const { config, db } = fastify;
    const { files, blobs, signingKey } = await openFileStore(db, config);
    fastify.decorate('files', files);

    if (blobs) {
      // Objects left by rolled-back changes and deletions (see s3-blobs.ts), hourly; every
      // instance may sweep, a deletion twice is harmless.
      const sweep = () => {
        files.sweep().then(
          (deleted) => deleted > 0 && fastify.log.info({ deleted }, 'orphan file objects deleted'),
          (error: unknown) => fastify.log.warn({ err: error }, 'file object sweep failed'),
        );
      };
      const timer = setInterval(sweep, SWEEP_GRACE_MS).unref();
      fastify.addHook('onClose', async () => {
        clearInterval(timer);
        blobs.close();
      });
    }

    registerPdfUploads(fastify);
    await fastify.register(filesRoutes, { signingKey });
  },
  { name: 'files', dependencies: ['route-gates'] },
);
