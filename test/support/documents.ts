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

/**
 * The texts of the elements a path names (namespace prefixes ignored), in document order: `Nm` is
 * every element named Nm; `Dbtr/Nm` an Nm child of a Dbtr; `DbtrAcct//IBAN` an IBAN anywhere
 * inside a DbtrAcct; a last step `@Ccy` gives that attribute's values (of the elements that have it).
 * What xmllint's `//*[local-name()='Dbtr']/*[local-name()='Nm']` and `…/@Ccy` select.
 */
export function xmlTexts(xml: string, path: string): string[] {
  const steps = path.split(/(\/\/?)/);
  let nodes = descendants(parseElements(xml), steps[0]!);
  for (let i = 1; i < steps.length; i += 2) {
    const [axis, name] = [steps[i], steps[i + 1]!];
    if (name.startsWith('@')) {
      if (i + 2 < steps.length) throw new Error(`an attribute ends a path: ${path}`);
      return nodes.flatMap((node) => (name.slice(1) in node.attributes ? [node.attributes[name.slice(1)]!] : []));
    }
    nodes = nodes.flatMap((node) => (axis === '/' ? node.children.filter((child) => child.name === name) : descendants(node.children, name)));
  }
  return nodes.map((node) => node.text);
}

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text children, concatenated. */
  text: string;
}

const orderedParser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});
const localName = (tag: string) => tag.slice(tag.indexOf(':') + 1);

/** The elements of a document, as a tree of local names, from fast-xml-parser's ordered parse. */
function parseElements(xml: string): XmlElement[] {
  const convert = (nodes: unknown): XmlElement[] =>
    (Array.isArray(nodes) ? nodes : []).flatMap((node: Record<string, unknown>) => {
      const tag = Object.keys(node).find((key) => key !== ':@' && key !== '#text');
      if (tag === undefined || tag.startsWith('?')) return [];
      const children = node[tag];
      const attributes = Object.fromEntries(
        Object.entries((node[':@'] ?? {}) as Record<string, unknown>).map(([key, value]) => [localName(key), String(value)]),
      );
      return [{ name: localName(tag), attributes, children: convert(children), text: textOf(children) }];
    });
  return convert(orderedParser.parse(xml));
}

/** Every element named `name` among `nodes` and their descendants, in document order. */
function descendants(nodes: XmlElement[], name: string): XmlElement[] {
  return nodes.flatMap((node) => [...(node.name === name ? [node] : []), ...descendants(node.children, name)]);
}

/** The concatenated text children of one element of the ordered parse. */
function textOf(children: unknown): string {
  if (!Array.isArray(children)) return '';
  return children
    .filter((child): child is { '#text': unknown } => child !== null && typeof child === 'object' && '#text' in child)
    .map((child) => String(child['#text']))
    .join('');
}
