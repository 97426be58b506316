import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CopyFormatError } from '../../src/db/copy-binary.ts';
import { GlobalItemWriter, writeIsoTimestamp } from '../../src/access/global-list-items.ts';
import { binaryCopy, binaryTimestamp, cutAt, microsOf, uuidBytes } from '../support/copy-binary.ts';

function iso(micros: bigint): string {
  const out = Buffer.alloc(32);
  return out.toString('latin1', 0, writeIsoTimestamp(binaryTimestamp(micros), 0, out, 0));
}

describe('writeIsoTimestamp', () => {
  it('should write UTC with milliseconds truncated, as to_char(… MS) does', () => {
    assert.equal(iso(microsOf('2026-11-22T10:00:00.123Z', 999n)), '2026-11-22T10:00:00.123Z');
    assert.equal(iso(microsOf('2000-01-01T00:00:00.000Z')), '2000-01-01T00:00:00.000Z');
    assert.equal(iso(microsOf('2000-02-29T23:59:59.999Z')), '2000-02-29T23:59:59.999Z');
    assert.equal(iso(microsOf('9999-12-31T23:59:59.999Z', 999n)), '9999-12-31T23:59:59.999Z');
    assert.equal(iso(microsOf('0001-01-01T00:00:00.000Z')), '0001-01-01T00:00:00.000Z');
  });

  it('should round down before 2000 too (negative microseconds)', () => {
    // 1999-12-31T23:59:59.9995: -500 µs from PostgreSQL's epoch.
    assert.equal(iso(-500n), '1999-12-31T23:59:59.999Z');
    assert.equal(iso(microsOf('1969-07-20T20:17:40.000Z', 1n)), '1969-07-20T20:17:40.000Z');
  });

  it('should agree with Date for any instant of years 0 to 9999, one after another', () => {
    const out = Buffer.alloc(32);
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: microsOf('0000-01-01T00:00:00.000Z'), max: microsOf('9999-12-31T23:59:59.999Z', 998n) }), { minLength: 1, maxLength: 20 }),
        (instants) => {
          // Consecutive calls share the date part it keeps: check each against Date.
          for (const micros of [...instants, ...instants.map((m) => m + 1n)]) {
            const ms = micros / 1000n - (micros < 0n && micros % 1000n !== 0n ? 1n : 0n);
            const expected = new Date(Number(ms) + Date.UTC(2000, 0, 1)).toISOString();
            assert.equal(out.toString('latin1', 0, writeIsoTimestamp(binaryTimestamp(micros), 0, out, 0)), expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('should refuse a year it would write differently from PostgreSQL, and infinity', () => {
    assert.throws(() => iso(microsOf('+010000-01-01T00:00:00.000Z')), CopyFormatError);
    assert.throws(() => iso(9223372036854775807n));
  });
});

describe('GlobalItemWriter', () => {
  const orgId = '00112233-4455-6677-8899-aabbccddeeff';
  const userId = 'f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f';
  const row = (created: string, afterUser: string, afterCreated: string) => [
    uuidBytes(orgId),
    uuidBytes(userId),
    Buffer.from(afterUser),
    binaryTimestamp(microsOf(created, 456n)),
    Buffer.from(afterCreated),
  ];
  const copy = binaryCopy([
    row('2026-11-22T10:00:00.123Z', '","first_name":"Zoé","email":"z@example.com","role":"ADMIN', '","revoked":false,"revoked_at":null,"activated":true}'),
    row(
      '2026-11-21T09:08:07.006Z',
      '","first_name":null,"email":"a\\"b@example.com","role":"AGENT',
      '","revoked":true,"revoked_at":"2026-11-22T00:00:00.000Z","activated":false}',
    ),
  ]);
  const expected =
    `{"org_id":"${orgId}","user_id":"${userId}","first_name":"Zoé","email":"z@example.com","role":"ADMIN","created_at":"2026-11-22T10:00:00.123Z","revoked":false,"revoked_at":null,"activated":true},` +
    `{"org_id":"${orgId}","user_id":"${userId}","first_name":null,"email":"a\\"b@example.com","role":"AGENT","created_at":"2026-11-21T09:08:07.006Z","revoked":true,"revoked_at":"2026-11-22T00:00:00.000Z","activated":false}`;

  function written(chunks: Buffer[]): string {
    const writer = new GlobalItemWriter();
    const parts = chunks.flatMap((chunk) => writer.push(chunk));
    writer.finish();
    return Buffer.concat(parts).toString('utf8');
  }

  it('should write each row as the item itemText builds, comma-separated', () => {
    assert.equal(written([Buffer.from(copy)]), expected);
    assert.deepEqual(JSON.parse(`[${expected}]`)[1].email, 'a"b@example.com');
  });

  it('should write the same items wherever the chunks are cut', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: copy.length }), { maxLength: 12 }), (offsets) => {
        assert.equal(written(cutAt(copy, offsets)), expected);
      }),
      { numRuns: 300 },
    );
  });

  it('should refuse a row that is not a global list row', () => {
    const bad = binaryCopy([[uuidBytes(orgId), Buffer.from('not a uuid'), Buffer.from(''), binaryTimestamp(0n), Buffer.from('}')]]);
    assert.throws(() => written([bad]), /unexpected global list row/);
  });
});
