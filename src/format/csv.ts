/**
 * CSV exports for the people who reconcile: a file a French spreadsheet opens as it
 * is. UTF-8 with a byte order mark, `;` between cells, CRLF line ends, a French header row,
 * amounts with a decimal comma and no thousands separator (`1234,50`, `-120,00`), dates
 * JJ/MM/AAAA. Written by `csv-stringify`, quoting a cell that holds `;`, `,`, `"` or a line break
 * (a reader that takes `,` for the separator must not split it either).
 *
 * Formula injection: a text cell (a name, a label, a reason: anything a person typed) that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so that a
 * spreadsheet shows it and never evaluates it (OWASP's "CSV injection"). Amounts are not text:
 * they are written here from the API's decimal string (`^-?\d+\.\d{2}$`, checked: anything
 * else throws) and stay numbers, so a credit note's `-120,00` is summed, not shown as text.
 *
 * Large exports stream: `sendCsv` reads the list's keyset pages one after the other (each of
 * `MAX_LIMIT` rows, through the same service function as the list route, so the same filters
 * and the same refusals) and writes each row as it comes; a month of 10,000 payslips never sits
 * in memory, nor in one string. The first page is read before the answer starts, so a refused
 * filter still answers its JSON 400.
 */
import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { formatDateFr, todayInFrance } from './french.ts';
import { attachment } from '../http/content-disposition.ts';

/** A column: its French header, and how a row fills it (null: an empty cell). */
export type CsvColumn<T> =
  | { header: string; text: (row: T) => string | null | undefined }
  | { header: string; amount: (row: T) => string | null | undefined }
  | { header: string; date: (row: T) => string | Date | null | undefined };

/** A page of a list route (`{ items, next_cursor }`). */
export interface CsvPage<T> {
  items: T[];
  next_cursor: string | null;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell, neutralised when a spreadsheet would read it as a formula (`'=HYPERLINK(…)`). */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** `"1234.50"` → `1234,50`, `"-120.00"` → `-120,00`; anything but a decimal with 2 places throws. */
export function csvAmount(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (!/^-?\d+\.\d{2}$/.test(value)) throw new Error(`csvAmount: not an amount: ${value}`);
  return value.replace('.', ',');
}

/** `2026-11-30` → `30/11/2026`; a time stamp (a Date) → its day in France. */
export function csvDate(value: string | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  return formatDateFr(value instanceof Date ? todayInFrance(value) : value.slice(0, 10));
}

/**
 * A pay period as the API writes it, `2026-11`, in every export. `11/2026` (as the pages ask for
 * it) is turned into a date by a French spreadsheet; a year first, then the month, is not, and
 * it sorts and matches a bank statement's or the API's period as it is.
 */
export function csvPeriod(period: string | null | undefined): string {
  if (!period) return '';
  return period;
}

function cellOf<T>(column: CsvColumn<T>, row: T): string {
  if ('text' in column) return csvText(column.text(row));
  if ('amount' in column) return csvAmount(column.amount(row));
  return csvDate(column.date(row));
}

/** The rows of every page: `first`, then each page `read` returns for the previous one's cursor. */
export async function* allRows<T>(first: CsvPage<T>, read: (cursor: string) => Promise<CsvPage<T>>): AsyncGenerator<T> {
  let page = first;
  for (;;) {
    yield* page.items;
    if (page.next_cursor === null) return;
    page = await read(page.next_cursor);
  }
}

const FILENAME = /^[a-z]+(-\d{4}-\d{2})?\.csv$/;

/** `factures-2026-11.csv`, or `factures.csv` without a period (or with one that is not `YYYY-MM`: the read refuses it). */
export function csvFilename(base: string, period?: string | null): string {
  return period && /^\d{4}-\d{2}$/.test(period) ? `${base}-${period}.csv` : `${base}.csv`;
}

export interface CsvExport<T> {
  /** `csvFilename`'s: ASCII letters, digits and dashes (`factures-2026-11.csv`). */
  filename: string;
  columns: ReadonlyArray<CsvColumn<T>>;
  /** A page of the list: no cursor for the first one. */
  read: (cursor: string | undefined) => Promise<CsvPage<T>>;
}

/**
 * Answers the export: reads the first page (a refusal answers before any byte of the file),
 * then streams every row as CSV.
 */
export async function sendCsv<T>(reply: FastifyReply, spec: CsvExport<T>): Promise<FastifyReply> {
  if (!FILENAME.test(spec.filename)) throw new Error(`sendCsv: bad filename ${spec.filename}`);
  const first = await spec.read(undefined);
  const rows = allRows(first, (cursor) => spec.read(cursor));
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) yield spec.columns.map((column) => cellOf(column, row));
    })(),
  );
  const csv = stringify({
    bom: true,
    delimiter: ';',
    record_delimiter: '\r\n',
    // A text cell is quoted too when a comma-separated reader would split it (`Dupont,=1+1`
    // would give it a cell `=1+1`, a formula), or a lone line break would. Amounts (`-14,40`)
    // stay bare: a quoted number may be read as text, and no longer summed.
    cast: {
      string: (value, context) =>
        typeof context.index === 'number' && 'text' in spec.columns[context.index]! && /[,\r\n]/.test(value) ? { value, quoted: true } : value,
    },
    header: true,
    columns: spec.columns.map((column) => column.header),
  });
  // A failure half-way (the database gone) destroys the answer: the file ends short and the
  // client sees a broken download, never a file that looks complete.
  pipeline(records, csv, (error) => {
    if (error) reply.log.error({ err: error }, 'csv export failed');
  });
  return reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(spec.filename)).header('cache-control', 'private, no-store').send(csv);
}
