/**
 * The engine: URSSAF's own rules (`modele-social`) run by `publicodes`, both pinned
 * exactly in package.json. No rate, ceiling or threshold is written in the service: a law that
 * changes is a new version of the model.
 */
import Engine, { type EvaluatedNode } from 'publicodes';
import modeleSocial from 'modele-social';
import { overlayRules } from './law.ts';
import { correctedRules, type RawRules } from './model-corrections.ts';
import type { Situation } from './situation.ts';

export { MODEL_VERSION } from './model-version.ts';

export type PayrollEngine = Engine<string>;

/** The model's warnings (cycles it resolves, experimental rules) are its own business, not our logs. */
const quiet = { log() {}, warn() {}, error() {} };

/**
 * A new engine on the corrected model, the overlay of law/spectacle on top (its rules of the same
 * name replace the model's), plus `extraRules`: about a second to build, so build it once a process.
 */
export function buildEngine(extraRules: RawRules = {}): PayrollEngine {
  return new Engine({ ...correctedRules(modeleSocial as unknown as RawRules), ...overlayRules(), ...extraRules } as never, { logger: quiet }) as PayrollEngine;
}

/** True when the pinned model has this rule (the situation's keys and the lines are checked against it in tests). */
export function hasRule(engine: PayrollEngine, name: string): boolean {
  return name in engine.getParsedRules();
}

/** A figure of the model: `monthly` in €/mois, as it is otherwise. */
export interface Read {
  rule: string;
  monthly: boolean;
}

/** The model as a payslip reads it (`compute.ts`): a situation, then figures. */
export interface PayrollModel {
  setSituation(situation: Situation): void;
  read(read: Read): EvaluatedNode['nodeValue'];
}

const expression = ({ rule, monthly }: Read) => (monthly ? { valeur: rule, unité: '€/mois' } : rule);

/**
 * The library's documented way: `setSituation`, then `evaluate` of an expression for each figure.
 * Each `evaluate` parses its expression again, copying the model's thousands of parsed rules:
 * about 55 % of a payslip's time (bench/README.md). The bench's reference loop, and the tests'.
 */
export function evaluatingModel(engine: PayrollEngine = buildEngine()): PayrollModel {
  return {
    setSituation: (situation) => void engine.setSituation(situation as never),
    read: (read) => engine.evaluate(expression(read)).nodeValue,
  };
}

/** The namespace of the read-out rules: no rule of the model (checked in tests). */
export const READ_OUT_NAMESPACE = 'lecture paie';

/**
 * The service's way, the same figures (tested to the cent against `evaluatingModel`): every
 * figure a payslip reads becomes, once, a rule of the engine, `lecture paie . rN`, whose value is
 * the very expression `evaluatingModel` evaluates; parsed with the model, so that replacements
 * apply to it as they do to an evaluated expression. A read then evaluates that parsed rule,
 * with nothing to parse. The situation is set in strict mode: its entries are parsed in one
 * pass rather than one by one, and a wrong entry is refused rather than dropped with a warning.
 */
export function compiledModel(reads: readonly Read[]): PayrollModel {
  const names = new Map<string, string>();
  const rules: RawRules = { [READ_OUT_NAMESPACE]: null };
  for (const read of reads) {
    const key = `${read.monthly}:${read.rule}`;
    if (names.has(key)) continue;
    const name = `${READ_OUT_NAMESPACE} . r${names.size}`;
    names.set(key, name);
    rules[name] = { valeur: expression(read) };
  }
  const engine = buildEngine(rules);
  const nodes = new Map([...names].map(([key, name]) => [key, engine.getRule(name)]));
  return {
    setSituation: (situation) => void engine.setSituation(situation as never, { strict: true }),
    read(read) {
      const node = nodes.get(`${read.monthly}:${read.rule}`);
      if (!node) throw new Error(`"${read.rule}" is read without having been compiled: add it to the reads given to compiledModel`);
      return engine.evaluateNode(node).nodeValue;
    },
  };
}
