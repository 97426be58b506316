/**
 * The global list's items from the rows of its binary COPY
 * (`globalMembersCopyStatement`): PostgreSQL sends the two ids and `created_at` as binary values
 * and the rest of the item as text; this writes the ids as UUID text and `created_at` as
 * `to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` would (milliseconds truncated, UTC), exactly the
 * bytes `itemText` builds for the other lists. Pure: bytes in, bytes out.
 */
import { BinaryCopyReader, CopyFormatError } from '../db/copy-binary.ts';
import { GLOBAL_COPY_COLUMNS } from './access.repository.ts';

const ORG_ID = 0;
const USER_ID = 1;
const AFTER_USER_ID = 2;
const CREATED_AT = 3;
const AFTER_CREATED_AT = 4;

const OPEN_ORG_ID = Buffer.from('{"org_id":"');
const OPEN_USER_ID = Buffer.from('","user_id":"');
const OPEN_CREATED_AT = Buffer.from('","created_at":"');
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const UUID_BYTES = 16;
const TIMESTAMP_BYTES = 8;
const ISO_LENGTH = '2026-11-22T10:00:00.000Z'.length;
/** What an item adds to its two text parts, its separator included. */
const ITEM_FIXED_LENGTH = 1 + OPEN_ORG_ID.length + 36 + OPEN_USER_ID.length + 36 + OPEN_CREATED_AT.length + ISO_LENGTH;
const COMMA = 0x2c;
const DASH = 0x2d;

export class GlobalItemWriter {
  private readonly reader = new BinaryCopyReader(GLOBAL_COPY_COLUMNS.length);
  private first = true;
  private parts: Buffer[] = [];
  private out = Buffer.alloc(0);
  private written = 0;
  private readonly writeRow = (buf: Buffer, fields: Int32Array) => this.write(buf, fields);

  /** The items `chunk` completes, joined by commas (one before each item but the very first). */
  push(chunk: Buffer): Buffer[] {
    // Items are ~1.3 times their rows (ids and timestamps grow as text); a fuller buffer is
    // let go and another started. Sized close: unused space is memory held until collected.
    this.out = Buffer.allocUnsafe(Math.max(16_384, Math.ceil(chunk.length * 1.4)));
    this.written = 0;
    this.parts = [];
    this.reader.push(chunk, this.writeRow);
    if (this.written > 0) this.parts.push(this.out.subarray(0, this.written));
    return this.parts;
  }

  /** Throws unless the COPY ended properly. */
  finish(): void {
    this.reader.finish();
  }

  private write(buf: Buffer, fields: Int32Array): void {
    if (fields[2 * ORG_ID + 1] !== UUID_BYTES || fields[2 * USER_ID + 1] !== UUID_BYTES || fields[2 * CREATED_AT + 1] !== TIMESTAMP_BYTES) {
      throw new CopyFormatError('unexpected global list row');
    }
    const afterUserStart = fields[2 * AFTER_USER_ID]!;
    const afterUserLength = fields[2 * AFTER_USER_ID + 1]!;
    const afterCreatedStart = fields[2 * AFTER_CREATED_AT]!;
    const afterCreatedLength = fields[2 * AFTER_CREATED_AT + 1]!;
    if (afterUserLength < 0 || afterCreatedLength < 0) throw new CopyFormatError('unexpected NULL in a global list row');
    const needed = ITEM_FIXED_LENGTH + afterUserLength + afterCreatedLength;
    if (this.written + needed > this.out.length) {
      this.parts.push(this.out.subarray(0, this.written));
      this.out = Buffer.allocUnsafe(Math.max(16_384, needed));
      this.written = 0;
    }
    const out = this.out;
    let w = this.written;
    if (!this.first) out[w++] = COMMA;
    this.first = false;
    // TypedArray#set and plain views: for copies this small, Buffer#copy's checks and
    // Buffer#subarray's construction cost more than the copy.
    out.set(OPEN_ORG_ID, w);
    w = writeUuid(buf, fields[2 * ORG_ID]!, out, w + OPEN_ORG_ID.length);
    out.set(OPEN_USER_ID, w);
    w = writeUuid(buf, fields[2 * USER_ID]!, out, w + OPEN_USER_ID.length);
    out.set(new Uint8Array(buf.buffer, buf.byteOffset + afterUserStart, afterUserLength), w);
    w += afterUserLength;
    out.set(OPEN_CREATED_AT, w);
    w = writeIsoTimestamp(buf, fields[2 * CREATED_AT]!, out, w + OPEN_CREATED_AT.length);
    out.set(new Uint8Array(buf.buffer, buf.byteOffset + afterCreatedStart, afterCreatedLength), w);
    this.written = w + afterCreatedLength;
  }
}

/** A binary UUID as `8-4-4-4-12` lower-case hex, as PostgreSQL writes it. */
function writeUuid(buf: Buffer, at: number, out: Buffer, w: number): number {
  for (let i = 0; i < UUID_BYTES; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out[w++] = DASH;
    const byte = buf[at + i]!;
    out[w++] = HEX[byte >> 4]!;
    out[w++] = HEX[byte & 15]!;
  }
  return w;
}

const MS_PER_DAY = 86_400_000;
/** Days from 1970-01-01 to 2000-01-01. */
const POSTGRES_EPOCH_DAYS = 10_957;

/** Two ASCII digits per number 0-99. */
const TWO_DIGITS = Buffer.from(Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0')).join(''), 'latin1');
/** The date part (`YYYY-MM-DD`) of the last timestamp written: the list is in time order, so it rarely changes. */
let lastDayNumber = NaN;
const lastDate = Buffer.alloc(10);

/**
 * A binary `timestamptz` (microseconds from 2000-01-01 UTC) as `YYYY-MM-DDTHH:MM:SS.mmmZ`,
 * milliseconds truncated as `to_char` does. Written digit by digit (`Date#toISOString` was
 * most of the time spent per item), the date part computed once per day. Years outside
 * 0-9999 are refused rather than written differently from PostgreSQL.
 */
export function writeIsoTimestamp(buf: Buffer, at: number, out: Uint8Array, w: number): number {
  const ms = millisecondsFrom2000(buf, at);
  const dayNumber = Math.floor(ms / MS_PER_DAY);
  if (dayNumber !== lastDayNumber) writeDate(dayNumber);
  out.set(lastDate, w);
  w += 10;
  const msOfDay = ms - dayNumber * MS_PER_DAY;
  const seconds = (msOfDay / 1000) | 0;
  out[w++] = 0x54; // T
  w = writeTwoDigits(out, w, (seconds / 3600) | 0);
  out[w++] = 0x3a; // :
  w = writeTwoDigits(out, w, ((seconds / 60) | 0) % 60);
  out[w++] = 0x3a;
  w = writeTwoDigits(out, w, seconds % 60);
  out[w++] = 0x2e; // .
  const millis = msOfDay - seconds * 1000;
  out[w++] = 0x30 + ((millis / 100) | 0);
  w = writeTwoDigits(out, w, millis % 100);
  out[w++] = 0x5a; // Z
  return w;
}

function writeDate(dayNumber: number): void {
  const [year, month, day] = civilFromDays(dayNumber + POSTGRES_EPOCH_DAYS);
  if (!(year >= 0 && year <= 9999)) throw new CopyFormatError(`timestamp out of range (year ${year})`);
  writeTwoDigits(lastDate, 0, (year / 100) | 0);
  writeTwoDigits(lastDate, 2, year % 100);
  lastDate[4] = DASH;
  writeTwoDigits(lastDate, 5, month);
  lastDate[7] = DASH;
  writeTwoDigits(lastDate, 8, day);
  lastDayNumber = dayNumber;
}

function writeTwoDigits(out: Uint8Array, w: number, value: number): number {
  out[w] = TWO_DIGITS[2 * value]!;
  out[w + 1] = TWO_DIGITS[2 * value + 1]!;
  return w + 2;
}

function millisecondsFrom2000(buf: Buffer, at: number): number {
  const micros = buf.readInt32BE(at) * 2 ** 32 + buf.readUInt32BE(at + 4);
  if (Number.isSafeInteger(micros)) return Math.floor(micros / 1000);
  // Beyond ±285 years from 2000 a double loses microseconds: divide exactly (flooring).
  const exact = buf.readBigInt64BE(at);
  const quotient = exact / 1000n;
  return Number(exact < 0n && quotient * 1000n !== exact ? quotient - 1n : quotient);
}

/** Proleptic Gregorian date of a day number (days from 1970-01-01): H. Hinnant's `civil_from_days`. */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
