/**
 * The law the model lacks: the publicodes rules of `law/spectacle/`, loaded on top of
 * `modele-social` when an engine is built. They are data with their sources, never TypeScript;
 * see law/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { RawRules } from './model-corrections.ts';

/** `law/spectacle`, from src/payroll or dist/payroll alike. */
export const OVERLAY_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../law/spectacle');

/** The overlay's own version (law/spectacle/VERSION), named in every payslip's `model_version`. */
export const OVERLAY_VERSION = fs.readFileSync(path.join(OVERLAY_DIR, 'VERSION'), 'utf8').trim();

/** Every rule of the overlay, file by file in name order; a name defined twice is an error. */
export function overlayRules(): RawRules {
  const rules: RawRules = {};
  for (const file of fs
    .readdirSync(OVERLAY_DIR)
    .filter((f) => f.endsWith('.publicodes'))
    .sort()) {
    const parsed = parse(fs.readFileSync(path.join(OVERLAY_DIR, file), 'utf8')) as RawRules;
    for (const [name, rule] of Object.entries(parsed)) {
      if (name in rules) throw new Error(`law/spectacle/${file}: the rule "${name}" is defined twice`);
      rules[name] = rule;
    }
  }
  return rules;
}
