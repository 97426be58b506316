/**
 * Reading documents in tests with npm packages only, so that `npm test` needs nothing from the OS:
 * the text of a PDF (unpdf, which bundles Mozilla's pdf.js) and an XML file against its schema
 * (xmllint-wasm, libxml2 compiled to WebAssembly) or its element texts (fast-xml-parser).
 */
import fs from 'node:fs';
import path from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { validateXML } from 'xmllint-wasm';
import { XMLParser } from 'fast-xml-parser';

/**
 * The text of a PDF, pages joined by a line break, with every run of white space (no-break spaces
 * included) as one space: what a reader finds with "search" in a PDF viewer.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  try {
    const { text } = await extractText(document, { mergePages: false });
    return text.map((page) => page.replace(/\s+/g, ' ').trim()).join('\n');
  } finally {
    await document.destroy();
  }
}

/**
 * Validates `xml` against the XSD at `schemaPath` (and the schemas it imports, given by path);
 * throws the validator's report otherwise.
 */
export async function assertValidXml(xml: string, schemaPath: string, imports: string[] = []): Promise<void> {
  const asFile = (file: string) => ({ fileName: path.basename(file), contents: fs.readFileSync(file, 'utf8') });
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [asFile(schemaPath)],
    preload: imports.map(asFile),
  });
  if (!result.valid) {
    const report = result.errors.map((error) => error.rawMessage).join('\n');
    throw new Error(`the XML does not match ${path.basename(schemaPath)}:\n${report}\n${xml}`);
  }
}

/** The texts of every element named `name` (namespace prefix ignored), in document order. */
export function xmlTexts(xml: string, name: string): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === ':@' || key === '#text') continue;
      if (localName(key) === name) found.push(textOf(value));
      walk(value);
    }
  };
  walk(orderedParser.parse(xml));
  return found;
}

const orderedParser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, parseTagValue: false, trimValues: false });
const localName = (tag: string) => tag.slice(tag.indexOf(':') + 1);

/** The concatenated text children of one element of the ordered parse. */
function textOf(children: unknown): string {
  if (!Array.isArray(children)) return '';
  return children
    .filter((child): child is { '#text': unknown } => child !== null && typeof child === 'object' && '#text' in child)
    .map((child) => String(child['#text']))
    .join('');
}
