/** Builds PostgreSQL binary COPY output (the format `src/db/copy-binary.ts` reads) for tests. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

export function binaryCopy(rows: Array<Array<Buffer | null>>, options: { headerExtension?: Buffer; trailer?: boolean } = {}): Buffer {
  const extension = options.headerExtension ?? Buffer.alloc(0);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(0, 0);
  header.writeUInt32BE(extension.length, 4);
  const parts = [SIGNATURE, header, extension];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      const length = Buffer.alloc(4);
      length.writeInt32BE(field === null ? -1 : field.length);
      parts.push(length);
      if (field) parts.push(field);
    }
  }
  if (options.trailer ?? true) parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

/** `bytes` cut at the given offsets (sorted, deduplicated, within range). */
export function cutAt(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.filter((o) => o > 0 && o < bytes.length))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  // The reader reuses the chunks it is given: hand it copies, as the socket would.
  return chunks.map((chunk) => Buffer.from(chunk));
}

/** A `timestamptz` as PostgreSQL sends it in binary: microseconds from 2000-01-01 UTC. */
export function binaryTimestamp(micros: bigint): Buffer {
  const buf = Buffer.alloc(8);
  buf.writeBigInt64BE(micros);
  return buf;
}

const POSTGRES_EPOCH_MS = BigInt(Date.UTC(2000, 0, 1));

/** Microseconds from 2000-01-01 UTC of an ISO instant, plus `extraMicros`. */
export function microsOf(iso: string, extraMicros = 0n): bigint {
  return (BigInt(Date.parse(iso)) - POSTGRES_EPOCH_MS) * 1000n + extraMicros;
}

export function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
}
