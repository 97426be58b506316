import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BinaryCopyReader, CopyFormatError } from '../../src/db/copy-binary.ts';
import { binaryCopy, cutAt } from '../support/copy-binary.ts';

/** Every row the reader hands over, as texts (null for NULL). */
function readAll(columns: number, chunks: Buffer[]): Array<Array<string | null>> {
  const reader = new BinaryCopyReader(columns);
  const rows: Array<Array<string | null>> = [];
  for (const chunk of chunks) {
    reader.push(chunk, (buf, fields) => {
      const row: Array<string | null> = [];
      for (let i = 0; i < columns; i++) {
        const start = fields[2 * i]!;
        const length = fields[2 * i + 1]!;
        row.push(length < 0 ? null : buf.toString('utf8', start, start + length));
      }
      rows.push(row);
    });
  }
  reader.finish();
  return rows;
}

const asBytes = (rows: Array<Array<string | null>>) => rows.map((row) => row.map((f) => (f === null ? null : Buffer.from(f))));

describe('BinaryCopyReader', () => {
  it('should hand over each row with its fields, NULL included', () => {
    const rows = [
      ['a', 'bc'],
      ['', null],
      ['{"x":"\\"é\\""}', 'z'],
    ];
    assert.deepEqual(readAll(2, [binaryCopy(asBytes(rows))]), rows);
  });

  it('should read a header extension and an empty COPY', () => {
    assert.deepEqual(readAll(1, [binaryCopy([], { headerExtension: Buffer.from('ext') })]), []);
  });

  it('should hand over the same rows wherever the chunks are cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.option(fc.string({ unit: 'grapheme', maxLength: 40 })), fc.string({ maxLength: 300 })), { maxLength: 20 }),
        fc.array(fc.nat({ max: 8000 }), { maxLength: 30 }),
        (rows, offsets) => {
          const bytes = binaryCopy(asBytes(rows));
          assert.deepEqual(readAll(2, cutAt(bytes, offsets)), rows);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('should hand over the same rows when fed one byte at a time', () => {
    const rows = [
      ['first', 'row'],
      ['x', null],
      ['third', ''],
    ];
    const bytes = binaryCopy(asBytes(rows));
    assert.deepEqual(
      readAll(
        2,
        cutAt(
          bytes,
          Array.from({ length: bytes.length }, (_, i) => i),
        ),
      ),
      rows,
    );
  });

  it('should refuse bytes that are not a binary COPY', () => {
    assert.throws(() => readAll(1, [Buffer.from('org_id\tuser_id\n1\t2\n\\.\n'.padEnd(40, ' '))]), CopyFormatError);
  });

  it('should refuse a row with another number of columns', () => {
    assert.throws(() => readAll(2, [binaryCopy(asBytes([['only one']]))]), /expected 2 columns, got 1/);
  });

  it('should say so when the output stops before its end (a cut connection is not a short list)', () => {
    const bytes = binaryCopy(asBytes([['a'], ['b']]), { trailer: false });
    assert.throws(() => readAll(1, [bytes]), /ended early/);
    const whole = binaryCopy(asBytes([['a'], ['b']]));
    assert.throws(() => readAll(1, [whole.subarray(0, whole.length - 5)]), /ended early/);
  });

  it('should refuse bytes after the end of the COPY', () => {
    const bytes = Buffer.concat([binaryCopy(asBytes([['a']])), Buffer.from([0, 1])]);
    assert.throws(() => readAll(1, [bytes]), /after the end/);
  });
});
