/**
 * The bytes of files in S3 (`STORAGE_URL=s3://bucket[/prefix]`), one object per file named
 * `{prefix}{id}`.
 *
 * No orphan after a rollback: S3 cannot take part in a database transaction, so the database
 * stays the truth. `put` uploads inside the caller's transaction, after the row is written; a
 * failed upload rolls it back. If the transaction then rolls back (or a file is deleted), the
 * object is left without a row, and `sweep` deletes every object older than an hour that has
 * no row. The hour is longer than any transaction, so an upload whose row is not committed yet
 * is never taken; a deletion is only ever swept after it is committed.
 */
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type BlobStore, SWEEP_GRACE_MS } from './file-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface S3Location {
  bucket: string;
  prefix: string;
  endpoint: string | null;
  region: string;
}

export interface S3Blobs extends BlobStore {
  close(): void;
}

export function createS3Blobs(location: S3Location): S3Blobs {
  // Credentials come from the usual AWS_* variables (the SDK's default chain). An S3-compatible
  // server wants path-style addressing, and not the newer checksums that only AWS knows.
  const client = new S3Client({
    region: location.region,
    ...(location.endpoint
      ? { endpoint: location.endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  });
  const key = (id: string) => `${location.prefix}${id}`;

  return {
    async put(id, content, contentType) {
      await client.send(new PutObjectCommand({ Bucket: location.bucket, Key: key(id), Body: content, ContentType: contentType }));
    },

    async get(id) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: key(id) }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },

    // Objects under the prefix that are not named by a file id are left alone.
    async sweep(exists, graceMs = SWEEP_GRACE_MS) {
      const before = Date.now() - graceMs;
      let deleted = 0;
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: location.bucket, Prefix: location.prefix, ContinuationToken: token }));
        const old = (page.Contents ?? [])
          .map((object) => ({ id: (object.Key ?? '').slice(location.prefix.length), modified: object.LastModified?.getTime() ?? 0 }))
          .filter((object) => UUID.test(object.id) && object.modified < before)
          .map((object) => object.id);
        const kept = await exists(old);
        for (const id of old.filter((candidate) => !kept.has(candidate))) {
          await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: key(id) }));
          deleted += 1;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return deleted;
    },

    close() {
      client.destroy();
    },
  };
}
