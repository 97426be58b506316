/** Every download's `Content-Disposition`, written by npm `content-disposition` (RFC 6266, RFC 8187). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'content-disposition';
import { attachment } from '../../src/http/content-disposition.ts';

describe('attachment()', () => {
  it("should encode ', *, ( and ) in filename* (encodeURIComponent leaves them) and give an ASCII fallback", () => {
    const name = "bulletin-2027-03-D'Artagnan (Hélène)*.pdf";
    const header = attachment(name);
    assert.equal(
      header,
      `attachment; filename="bulletin-2027-03-D'Artagnan (Helene)*.pdf"; filename*=UTF-8''bulletin-2027-03-D%27Artagnan%20%28H%C3%A9l%C3%A8ne%29%2A.pdf`,
    );
    assert.equal(parse(header).parameters.filename, name);
  });

  it('should write a plain ASCII name quoted, without filename*', () => {
    assert.equal(attachment('F-2026-000001-factur-x.xml'), 'attachment; filename="F-2026-000001-factur-x.xml"');
    assert.equal(attachment('factures-2026-11.csv'), 'attachment; filename="factures-2026-11.csv"');
  });
});
