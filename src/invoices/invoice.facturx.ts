/**
 * The invoice as EN 16931 data: the JSON invoice of npm `@e-invoice-eu/core`
 * (its "internal format", shaped as UBL), which the library writes as UN/CEFACT CII D16B and
 * attaches, as `factur-x.xml`, to the PDF people read, made PDF/A-3 with the Factur-X XMP
 * metadata. No XML is written here by hand.
 *
 * `facturXInvoice` is a pure function of the invoice (the same input as the PDF's);
 * `makeFacturX` runs the library and answers the Factur-X PDF with the XML it embedded, read
 * back out of it (so the XML served alone is the embedded one, byte for byte).
 */
import type { EInvoiceFormat, Invoice, ValidationService } from '@e-invoice-eu/core';
import { Ajv2019 } from 'ajv/dist/2019.js';
import type { ValidateFunction } from 'ajv';
import type { InvoiceKind } from '../db/schema.ts';
import { sumMoney, type Money } from '../money/money.ts';
import { legalMentions, type InvoiceDocumentInput } from './invoice.pdf.ts';
import { lineAmounts } from './invoice.rules.ts';

/** The library's name of the profile (EN 16931, `urn:cen.eu:en16931:2017`). */
export const FACTUR_X_FORMAT = 'Factur-X-EN16931';
export const FACTUR_X_FILENAME = 'factur-x.xml';

/** UNTDID 1001: 380 commercial invoice, 381 credit note. */
export const TYPE_CODES: Record<InvoiceKind, '380' | '381'> = { facture: '380', avoir: '381' };

/** UNTDID 4461: 58 SEPA credit transfer, 59 SEPA direct debit. */
export const PAYMENT_MEANS = { virement: '58', prelevement: '59' } as const;

/** A line at rate 0 is exempt (category E), with this reason (BR-E-10). */
export const EXEMPTION_REASON = 'Exonération de TVA';

type Ubl = Invoice['ubl:Invoice'];
type Line = Ubl['cac:InvoiceLine'][number];
type TaxSubtotal = NonNullable<Ubl['cac:TaxTotal'][0]['cac:TaxSubtotal']>[number];

const EUR = 'EUR' as const;
const VAT = { 'cbc:ID': 'VAT' };

/** VAT category of a rate: S (standard) above 0, E (exempt) at 0. */
function taxCategory(rate: string) {
  return Number(rate) > 0 ? { 'cbc:ID': 'S', 'cbc:Percent': rate, 'cac:TaxScheme': VAT } : { 'cbc:ID': 'E', 'cbc:Percent': '0.00', 'cac:TaxScheme': VAT };
}

/** Present values only: the library's schema refuses empty strings where it expects text. */
const present = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T;

export interface FacturXInput extends InvoiceDocumentInput {
  kind: InvoiceKind;
  /** A credit note's invoice (BG-3, preceding invoice reference) and reason. */
  credited: { number: string; issue_date: string } | null;
  credit_reason: string | null;
  buyer: InvoiceDocumentInput['buyer'] & { address_line: string | null; postcode: string | null; city: string | null; country: string };
}

/** The invoice in the library's JSON (the same content as the PDF). */
export function facturXInvoice(input: FacturXInput): Invoice {
  const { seller, buyer } = input;
  const lines: Line[] = input.lines.map((line, i) => {
    const { ht } = lineAmounts(line);
    return {
      'cbc:ID': String(i + 1),
      'cbc:InvoicedQuantity': line.quantity,
      'cbc:InvoicedQuantity@unitCode': 'C62',
      'cbc:LineExtensionAmount': ht,
      'cbc:LineExtensionAmount@currencyID': EUR,
      'cac:Item': { 'cbc:Name': line.label, 'cac:ClassifiedTaxCategory': taxCategory(line.vat_rate) },
      'cac:Price': { 'cbc:PriceAmount': line.unit_price, 'cbc:PriceAmount@currencyID': EUR },
    } as Line;
  });
  // The VAT breakdown (BG-23): one per rate, the sums of the lines' HT and VAT as printed.
  const byRate = new Map<string, { ht: Money[]; vat: Money[] }>();
  for (const line of input.lines) {
    const amounts = lineAmounts(line);
    const group = byRate.get(line.vat_rate) ?? { ht: [], vat: [] };
    group.ht.push(amounts.ht);
    group.vat.push(amounts.vat);
    byRate.set(line.vat_rate, group);
  }
  const subtotals: TaxSubtotal[] = [...byRate].map(([rate, group]) => {
    const category = taxCategory(rate);
    return {
      'cbc:TaxableAmount': sumMoney(group.ht),
      'cbc:TaxableAmount@currencyID': EUR,
      'cbc:TaxAmount': sumMoney(group.vat),
      'cbc:TaxAmount@currencyID': EUR,
      'cac:TaxCategory': category['cbc:ID'] === 'E' ? { ...category, 'cbc:TaxExemptionReason': EXEMPTION_REASON } : category,
    } as TaxSubtotal;
  });
  const notes = [
    ...(input.kind === 'avoir' && input.credited ? [`Avoir sur la facture ${input.credited.number} : ${input.credit_reason ?? ''}`.trim()] : []),
    ...legalMentions(input),
  ];
  const payment =
    input.payment_method === 'virement'
      ? {
          'cbc:PaymentMeansCode': PAYMENT_MEANS.virement,
          'cbc:PaymentID': input.number,
          ...(seller.iban
            ? {
                'cac:PayeeFinancialAccount': {
                  'cbc:ID': seller.iban,
                  'cbc:Name': seller.name,
                  ...(seller.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': seller.bic } } : {}),
                },
              }
            : {}),
        }
      : { 'cbc:PaymentMeansCode': PAYMENT_MEANS.prelevement, 'cbc:PaymentID': input.number };
  const buyerSiren = buyer.siret ? buyer.siret.slice(0, 9) : null;
  const ubl = {
    'cbc:ID': input.number,
    'cbc:IssueDate': input.issue_date,
    'cbc:DueDate': input.due_date,
    'cbc:InvoiceTypeCode': TYPE_CODES[input.kind],
    'cbc:Note': notes,
    'cbc:DocumentCurrencyCode': EUR,
    ...(input.kind === 'avoir' && input.credited
      ? { 'cac:BillingReference': [{ 'cac:InvoiceDocumentReference': { 'cbc:ID': input.credited.number, 'cbc:IssueDate': input.credited.issue_date } }] }
      : {}),
    'cac:AccountingSupplierParty': {
      'cac:Party': {
        'cac:PostalAddress': present({
          'cbc:StreetName': seller.address,
          'cbc:CityName': seller.city,
          'cbc:PostalZone': seller.postcode,
          'cac:Country': { 'cbc:IdentificationCode': 'FR' },
        }),
        'cac:PartyTaxScheme': [{ 'cbc:CompanyID': seller.vat, 'cac:TaxScheme': VAT }],
        'cac:PartyLegalEntity': { 'cbc:RegistrationName': seller.name, 'cbc:CompanyID': seller.siren, 'cbc:CompanyID@schemeID': '0002' },
      },
    },
    'cac:AccountingCustomerParty': {
      'cac:Party': {
        'cac:PostalAddress': present({
          'cbc:StreetName': buyer.address_line,
          'cbc:CityName': buyer.city,
          'cbc:PostalZone': buyer.postcode,
          'cac:Country': { 'cbc:IdentificationCode': buyer.country },
        }),
        'cac:PartyLegalEntity': present({
          'cbc:RegistrationName': buyer.name,
          'cbc:CompanyID': buyerSiren,
          'cbc:CompanyID@schemeID': buyerSiren ? '0002' : null,
        }),
      },
    },
    // The schema of CII wants the delivery block; the date of the service is the issue date.
    'cac:Delivery': { 'cbc:ActualDeliveryDate': input.issue_date },
    'cac:PaymentMeans': [payment],
    'cac:TaxTotal': [{ 'cbc:TaxAmount': input.total_vat, 'cbc:TaxAmount@currencyID': EUR, 'cac:TaxSubtotal': subtotals }],
    'cac:LegalMonetaryTotal': {
      'cbc:LineExtensionAmount': input.total_ht,
      'cbc:LineExtensionAmount@currencyID': EUR,
      'cbc:TaxExclusiveAmount': input.total_ht,
      'cbc:TaxExclusiveAmount@currencyID': EUR,
      'cbc:TaxInclusiveAmount': input.total_ttc,
      'cbc:TaxInclusiveAmount@currencyID': EUR,
      'cbc:PayableAmount': input.total_ttc,
      'cbc:PayableAmount@currencyID': EUR,
    },
    'cac:InvoiceLine': lines,
  };
  return { 'ubl:Invoice': ubl } as unknown as Invoice;
}

// ---------------------------------------------------------------------------------------
// The library, set up once per process.

let formatter: { newFormat: () => EInvoiceFormat; validate: ValidateFunction; validation: ValidationService } | null = null;

/**
 * `value` with every `&` of every text handed over as `&#38;amp;`, so that it reaches the XML as
 * given. The library writes its XML with xmlbuilder2's `create(options, object)`
 * (`FormatXMLService.renderXML`), which alters texts twice: its object reader decodes each text
 * and attribute (`BaseReader._decodeText`: `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, then `&#…;`
 * `&#x…;`: `&#x0;` became a NUL byte), and its writer leaves an `&` unescaped before `name;` or
 * `#digits;` (`BaseWriter`'s `nonEntityAmpersandRegex`: `R&amp;D` read back as `R&D`, `R&D;` an
 * undefined entity). `&#38;amp;` is decoded by the reader's second pass alone (which never rescans
 * what it wrote) into `&amp;`, which the writer keeps, and which an XML parser reads as `&`.
 */
export function protectAmpersands<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('&', '&#38;amp;') as T;
  if (Array.isArray(value)) return value.map(protectAmpersands) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, protectAmpersands(item)])) as T;
}

/** What XML 1.0 cannot carry (its `Char` production): a last check before a document is stored for ever. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** The library's CII writer, with every text handed to xmlbuilder2 so that it reaches the XML as given. */
function renderTextsAsGiven(format: EInvoiceFormat): void {
  const target = format as unknown as { renderXML?: (data: unknown) => string };
  const render = target.renderXML;
  // Pinned version: an upgrade that renames it fails here, loudly, not with altered texts.
  if (typeof render !== 'function') throw new Error('@e-invoice-eu/core has no renderXML: check how it hands texts to xmlbuilder2');
  target.renderXML = (data: unknown) => render.call(format, protectAmpersands(data));
}

interface PdfInfo {
  setTitle(title: string): void;
  setSubject(subject: string): void;
}

/**
 * The PDF's title and subject (its Info and its XMP `dc:title`, `dc:description`) in French,
 * "Avoir A-2026-000001": the library writes "…: Invoice A-2026-000001" and an English subject
 * (`FormatFacturXService.createPDFA`, through `addXmpMeta` and then `setTrailerInfoID`).
 */
function frenchTitle(format: EInvoiceFormat, title: string): void {
  const target = format as unknown as {
    addXmpMeta?: (node: unknown, meta: { subject: string }) => unknown;
    setTrailerInfoID?: (pdfDoc: PdfInfo, meta: { subject: string }) => Promise<void>;
  };
  const { addXmpMeta, setTrailerInfoID } = target;
  if (typeof addXmpMeta !== 'function' || typeof setTrailerInfoID !== 'function')
    throw new Error('@e-invoice-eu/core has no addXmpMeta/setTrailerInfoID: check how it titles the PDF');
  target.addXmpMeta = (node, meta) => addXmpMeta.call(format, node, { ...meta, subject: title });
  target.setTrailerInfoID = (pdfDoc, meta) => {
    pdfDoc.setTitle(title);
    pdfDoc.setSubject(title);
    return setTrailerInfoID.call(format, pdfDoc, { ...meta, subject: title });
  };
}

/**
 * What `InvoiceService.generate` does, with the JSON schema compiled once: the library's
 * `InvoiceService` compiles it on every call (about 0.6 s, on the event loop). The library is
 * loaded with the first Factur-X file, not with the server: it weighs about 50 MB of RSS.
 */
async function facturXFormatter() {
  if (formatter) return formatter;
  const { FormatFactoryService, ValidationService, invoiceSchema } = await import('@e-invoice-eu/core');
  const quiet = { log: () => {}, warn: () => {}, error: () => {} };
  const factory = new FormatFactoryService();
  // One service a document (a few objects): the wrappers below then never see another's title.
  const newFormat = () => {
    const format = factory.createFormatService(FACTUR_X_FORMAT, quiet);
    renderTextsAsGiven(format);
    return format;
  };
  const schema = structuredClone(invoiceSchema);
  newFormat().patchSchema(schema);
  const validate = new Ajv2019({ strict: true, allErrors: true, useDefaults: true }).compile(schema);
  formatter = { newFormat, validate, validation: new ValidationService(quiet) };
  return formatter;
}

/** The normalized name the library's formatters expect (`InvoiceService` lower-cases it). */
const FORMAT_OPTION = FACTUR_X_FORMAT.toLowerCase();

/**
 * The Factur-X file: `pdf` (the invoice people read) made PDF/A-3 with `factur-x.xml`
 * (AFRelationship Alternative) and the Factur-X XMP metadata, and that XML, read back out of it.
 */
export async function makeFacturX(pdf: Uint8Array, invoice: Invoice): Promise<{ pdf: Buffer; xml: Buffer }> {
  const { newFormat, validate, validation } = await facturXFormatter();
  const format = newFormat();
  const ubl = invoice['ubl:Invoice'];
  frenchTitle(format, `${ubl['cbc:InvoiceTypeCode'] === TYPE_CODES.avoir ? 'Avoir' : 'Facture'} ${ubl['cbc:ID']}`);
  const { PDFDocument } = await import('@cantoo/pdf-lib');
  const checked = validation.validate('invoice data', validate as never, structuredClone(invoice)) as Invoice;
  format.fillInvoiceDefaults(checked);
  const out = (await format.generate(checked, {
    format: FORMAT_OPTION,
    lang: 'fr-fr',
    pdf: { buffer: pdf, filename: 'facture.pdf', mimetype: 'application/pdf' },
  })) as Uint8Array;
  const xml = (await PDFDocument.load(out, { updateMetadata: false })).getAttachments().find((a) => a.name === FACTUR_X_FILENAME);
  if (!xml) throw new Error(`the Factur-X PDF has no ${FACTUR_X_FILENAME}`);
  if (NOT_XML_CHAR.test(Buffer.from(xml.data).toString('utf8'))) throw new Error(`the ${FACTUR_X_FILENAME} written holds a character XML 1.0 cannot carry`);
  return { pdf: Buffer.from(out), xml: Buffer.from(xml.data) };
}
