/**
 * An S3-compatible server on loopback for the tests (`s3rver`: the S3 protocol over a temporary
 * directory). It checks request signatures with its fixed credentials, which the AWS SDK reads
 * from the usual variables.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The keys of the bucket's objects, sorted (read through the S3 API). */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'paie'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
  return {
    endpoint,
    bucket,
    async keys() {
      const listing = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listing.Contents ?? []).map((object) => object.Key!).sort();
    },
    async close() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
