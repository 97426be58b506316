/** The document readers of the tests: they must fail on a wrong document, or the tests that use them prove nothing. */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { closeRenderers, renderPdf } from '../../src/pdf/render.ts';
import { sampleDocument } from '../pdf/sample.ts';
import { assertValidXml, pdfText, xmlTexts } from './documents.ts';

const XSD = path.join(import.meta.dirname, '..', 'fixtures', 'pain.001.001.03.xsd');
const header = (nbOfTxs: string) =>
  '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn><GrpHdr>' +
  `<MsgId>M1</MsgId><CreDtTm>2027-01-31T10:00:00</CreDtTm><NbOfTxs>${nbOfTxs}</NbOfTxs><InitgPty><Nm>Théâtre</Nm></InitgPty></GrpHdr>` +
  '</CstmrCdtTrfInitn></Document>';

after(() => closeRenderers());

describe('test documents', () => {
  it('should read the French text of a rendered PDF', async () => {
    const text = await pdfText(await renderPdf(sampleDocument()));
    assert.match(text, /Contrat de travail à durée déterminée d’usage/);
    assert.match(text, /Zoé Lefèvre/);
  });

  it('should refuse XML that breaks the schema and name the element, and texts read back in order', async () => {
    await assert.rejects(assertValidXml(header('deux'), XSD), /NbOfTxs/);
    assert.deepEqual(xmlTexts('<a xmlns:p="u"><p:Nm>Zoé</p:Nm><b><Nm>L&amp;A</Nm></b></a>', 'Nm'), ['Zoé', 'L&A']);
  });

  it('should select by path: children, descendants and attributes, in document order', () => {
    const xml =
      '<?xml version="1.0"?><D xmlns:p="u"><Dbtr><Nm>Odentas</Nm><Id><Nm>inner</Nm></Id></Dbtr><Cdtr><p:Nm>Zoé</p:Nm></Cdtr>' +
      '<Amt Ccy="EUR">1.00</Amt><Amt>2.00</Amt><Acct><Id><IBAN>FR76</IBAN></Id></Acct><IBAN>DE89</IBAN></D>';
    assert.deepEqual(xmlTexts(xml, 'Nm'), ['Odentas', 'inner', 'Zoé']);
    assert.deepEqual(xmlTexts(xml, 'Dbtr/Nm'), ['Odentas'], 'children only');
    assert.deepEqual(xmlTexts(xml, 'Dbtr//Nm'), ['Odentas', 'inner']);
    assert.deepEqual(xmlTexts(xml, 'Acct//IBAN'), ['FR76']);
    assert.deepEqual(xmlTexts(xml, 'Acct/IBAN'), []);
    assert.deepEqual(xmlTexts(xml, 'Amt/@Ccy'), ['EUR']);
    assert.deepEqual(xmlTexts(xml, 'Amt'), ['1.00', '2.00']);
  });
});
