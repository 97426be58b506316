/**
 * `Content-Disposition: attachment` for every download, written by npm `content-disposition`
 * (RFC 6266 and RFC 8187: a hand-made `encodeURIComponent` leaves `'`, `*`, `(` and `)`, which
 * `filename*` may not hold). The quoted name is an ASCII fallback without accents
 * ("Contrat é.pdf" → "Contrat e.pdf") for the old clients that ignore `filename*`.
 */
import { create as contentDisposition } from 'content-disposition';

export function attachment(filename: string): string {
  const fallback = filename
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_');
  // The library writes a token name bare (`filename=F-1.xml`); quoted, as the README documents it
  // (`filename="…"`), it means the same: a token holds no quote nor backslash.
  return contentDisposition(filename, { type: 'attachment', fallback }).replace(/^attachment; filename=([^";]+)(;|$)/, 'attachment; filename="$1"$2');
}
