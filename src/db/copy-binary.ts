/**
 * Reads PostgreSQL's binary COPY output (`copy (...) to stdout (format binary)`) row by row,
 * without decoding: each row's fields are handed over as offsets into the bytes they came in.
 * Text arrives exactly as PostgreSQL built it (the text format would escape backslashes), and
 * nothing is turned into JavaScript values unless the caller does so.
 *
 * Format (PostgreSQL docs, "COPY", binary format): an 11-byte signature, 32-bit flags, a
 * 32-bit header-extension length and that many bytes; then per row a 16-bit field count and,
 * per field, a 32-bit length (-1 for NULL) and the bytes; then a 16-bit -1.
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const FIXED_HEADER = SIGNATURE.length + 8;
const TRAILER = -1;

export class CopyFormatError extends Error {
  override name = 'CopyFormatError';
}

/** Receives one row: field `i` is `buf[fields[2i], fields[2i] + fields[2i+1])`, a length of -1 for NULL. */
export type RowHandler = (buf: Buffer, fields: Int32Array) => void;

export class BinaryCopyReader {
  /** The start of a header or row that the previous chunk cut. */
  private cut: Buffer | null = null;
  private headerRead = false;
  private ended = false;
  /** Reused for every row: [start, length] per field. */
  private readonly fields: Int32Array;

  constructor(private readonly columns: number) {
    this.fields = new Int32Array(columns * 2);
  }

  /** Hands `row` each row that `chunk` completes. */
  push(chunk: Buffer, row: RowHandler): void {
    let pos = 0;
    if (this.cut) {
      // Complete the cut unit from the front of `chunk`; until its length is known, take only
      // what tells it, never bytes of the next unit.
      let unit = this.cut;
      for (;;) {
        const length = this.unitLength(unit, 0);
        if (length !== undefined && unit.length === length) break;
        if (pos === chunk.length) {
          this.cut = unit;
          return;
        }
        const want = length === undefined ? this.bytesToKnowLength(unit) : length - unit.length;
        const take = Math.min(want, chunk.length - pos);
        unit = Buffer.concat([unit, chunk.subarray(pos, pos + take)]);
        pos += take;
      }
      this.cut = null;
      this.readUnits(unit, 0, row);
    }
    const end = this.readUnits(chunk, pos, row);
    if (end < chunk.length) this.cut = Buffer.from(chunk.subarray(end));
  }

  /** Throws unless the COPY ended properly (a cut connection must not pass for a short answer). */
  finish(): void {
    if (!this.ended) throw new CopyFormatError('COPY output ended early');
  }

  /** How many more bytes `unit` needs before its length can be told. */
  private bytesToKnowLength(unit: Buffer): number {
    if (!this.headerRead) return Math.max(1, FIXED_HEADER - unit.length);
    if (unit.length < 2) return 2 - unit.length;
    // A row: its field lengths come one after the other.
    let pos = 2;
    for (let i = 0; i < this.columns; i++) {
      if (pos + 4 > unit.length) return pos + 4 - unit.length;
      pos += 4 + Math.max(0, unit.readInt32BE(pos));
    }
    return 1;
  }

  /** The length of the header, row or trailer that `buf` holds at `pos`, once it holds enough to tell. */
  private unitLength(buf: Buffer, pos: number): number | undefined {
    const available = buf.length - pos;
    if (!this.headerRead) return available >= FIXED_HEADER ? FIXED_HEADER + buf.readUInt32BE(pos + SIGNATURE.length + 4) : undefined;
    if (available < 2) return undefined;
    if (buf.readInt16BE(pos) === TRAILER) return 2;
    let at = pos + 2;
    for (let i = 0; i < this.columns; i++) {
      if (at + 4 > buf.length) return undefined;
      at += 4 + Math.max(0, buf.readInt32BE(at));
    }
    return at - pos;
  }

  /** Reads the whole units of `buf` from `pos`; returns where the first incomplete one starts. */
  private readUnits(buf: Buffer, pos: number, row: RowHandler): number {
    const fields = this.fields;
    if (!this.headerRead) {
      const length = this.unitLength(buf, pos);
      if (length === undefined || pos + length > buf.length) return pos;
      if (!buf.subarray(pos, pos + SIGNATURE.length).equals(SIGNATURE)) throw new CopyFormatError('not a binary COPY');
      this.headerRead = true;
      pos += length;
    }
    for (;;) {
      if (this.ended) {
        if (pos < buf.length) throw new CopyFormatError('data after the end of the COPY');
        return pos;
      }
      if (pos + 2 > buf.length) return pos;
      const count = buf.readInt16BE(pos);
      if (count === TRAILER) {
        this.ended = true;
        pos += 2;
        continue;
      }
      if (count !== this.columns) throw new CopyFormatError(`expected ${this.columns} columns, got ${count}`);
      let at = pos + 2;
      for (let i = 0; i < this.columns; i++) {
        if (at + 4 > buf.length) return pos;
        const fieldLength = buf.readInt32BE(at);
        fields[2 * i] = at + 4;
        fields[2 * i + 1] = fieldLength;
        at += 4 + Math.max(0, fieldLength);
      }
      if (at > buf.length) return pos;
      row(buf, fields);
      pos = at;
    }
  }
}
