/**
 * The engine (PAYROLL 1): URSSAF's own rules (`modele-social`) run by `publicodes`, both pinned
 * exactly in package.json. No rate, ceiling or threshold is written in the service: a law that
 * changes is a new version of the model.
 */
import { createRequire } from 'node:module';
import Engine from 'publicodes';
import modeleSocial from 'modele-social';
import { correctedRules, type RawRules } from './model-corrections.ts';

const require = createRequire(import.meta.url);

/** `modele-social@x.y.z`, stored with every computed payslip. */
export const MODEL_VERSION = `modele-social@${(require('modele-social/package.json') as { version: string }).version}`;

export type PayrollEngine = Engine<string>;

/** The model's warnings (cycles it resolves, experimental rules) are its own business, not our logs. */
const quiet = { log() {}, warn() {}, error() {} };

/** A new engine on the corrected rules: about a second and a half to build, so build it once a thread. */
export function buildEngine(): PayrollEngine {
  return new Engine(correctedRules(modeleSocial as unknown as RawRules) as never, { logger: quiet }) as PayrollEngine;
}

/** True when the pinned model has this rule (the situation's keys and the lines are checked against it in tests). */
export function hasRule(engine: PayrollEngine, name: string): boolean {
  return name in engine.getParsedRules();
}
