/** Reading the CSV exports in tests, as a spreadsheet splitting on one delimiter reads them (RFC 4180 quotes). */
import assert from 'node:assert/strict';

/**
 * The rows' cells (quotes undone). `crlfOnly`: a record ends only with CRLF, and a line feed
 * outside quotes fails the test (the exports' own form); else CR, LF and CRLF all end one.
 */
export function readCsv(text: string, delimiter: string, { crlfOnly = false } = {}): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endRow = () => {
    row.push(cell);
    rows.push(row);
    row = [];
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      i++;
      endRow();
    } else if (c === '\n' || c === '\r') {
      assert.ok(!crlfOnly, 'no bare CR or LF outside quotes');
      endRow();
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}
