/**
 * Checking a factur-x.xml as the project requires: valid against the CII D16B schema, and no fatal
 * failed assertion of the EN 16931 rules (the official artefacts in test/support/en16931, run with
 * xmllint-wasm and SaxonJS: nothing from the OS).
 */
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import SaxonJS from 'saxon-js';
import { assertValidXml } from './documents.ts';

const ARTEFACTS = path.resolve(import.meta.dirname, 'en16931');
const XSD_DIR = path.join(ARTEFACTS, 'cii-d16b');
const XSD = path.join(XSD_DIR, 'CrossIndustryInvoice_100pD16B.xsd');
const XSD_IMPORTS = fs
  .readdirSync(XSD_DIR)
  .filter((f) => f.endsWith('.xsd') && f !== path.basename(XSD))
  .map((f) => path.join(XSD_DIR, f));

/** The compiled EN 16931 rules, loaded once per process (about 0.3 s; each run 0.1-0.9 s). */
let rules: unknown = null;
export const timings = { validated: 0, ms: 0 };

/** Schema, then the EN 16931 rules: no fatal failed assertion (each one named on failure). */
export async function assertEn16931(xml: string): Promise<void> {
  const started = Date.now();
  await assertValidXml(xml, XSD, XSD_IMPORTS);
  rules ??= JSON.parse(fs.readFileSync(path.join(ARTEFACTS, 'EN16931-CII-validation.sef.json'), 'utf8'));
  const result = (await SaxonJS.transform({ stylesheetInternal: rules, sourceText: xml, destination: 'serialized' }, 'async')) as { principalResult: string };
  const failed = [...result.principalResult.matchAll(/<svrl:failed-assert\b[^>]*>[\s\S]*?<\/svrl:failed-assert>/g)].map((m) => m[0]);
  const fatal = failed.filter((f) => /flag="fatal"/.test(f)).map((f) => f.replace(/\s+/g, ' ').slice(0, 300));
  assert.deepEqual(fatal, [], `EN 16931 fatal failed assertions:\n${fatal.join('\n')}\n${xml}`);
  timings.validated += 1;
  timings.ms += Date.now() - started;
}

/** A text as an XML serializer writes it in element content: `&`, `<` and `>` escaped, nothing else changed. */
export function xmlText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Asserts that `xml` holds an element `name` (any prefix) whose whole text is `text`, exactly. */
export function assertXmlElementText(xml: string, name: string, text: string): void {
  const pattern = new RegExp(`<(?:[\\w-]+:)?${name}>([^<]*)</(?:[\\w-]+:)?${name}>`, 'g');
  const found = [...xml.matchAll(pattern)].map((m) => m[1]!);
  assert.ok(found.includes(xmlText(text)), `no <${name}> with the text ${JSON.stringify(text)}; found ${JSON.stringify(found)}`);
}
