/**
 * The operator's identity and bank account (seller of invoices, debtor of salary transfers) as
 * settings: the environment variables are the defaults, a value staff saved wins. Everything
 * that reads the operator reads `operatorSettings`, so that a saved change applies at once on
 * every instance. Saved through `applyChange` with its audit event (never the values: an IBAN
 * is not written to the trail).
 */
import { isValidBIC, isValidIBAN } from 'ibantools';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { applyChange, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import {
  missingOperatorIdentity,
  normalizeOperatorValue,
  OPERATOR_ENV,
  OPERATOR_FIELDS,
  siretMatchesSiren,
  withOperatorValues,
  type OperatorField,
  type OperatorIdentity,
} from '../operator.rules.ts';
import { checkField } from '../schemas/fields.ts';
import { OperatorSettingFields } from '../schemas/operator.ts';
import { operatorErrors } from './operator.errors.ts';
import * as repo from './operator.repository.ts';

export type { OperatorIdentity } from '../operator.rules.ts';

function savedValues(stored: repo.StoredSettings): Partial<Record<OperatorField, string>> {
  const values: Partial<Record<OperatorField, string>> = {};
  for (const field of OPERATOR_FIELDS) {
    const value = stored[field];
    if (value !== null) values[field] = value;
  }
  return values;
}

/** The operator as every document and file names it now: what staff saved, else the environment. */
export async function operatorSettings(db: Database, config: Pick<Config, 'operator'>): Promise<OperatorIdentity> {
  return withOperatorValues(config.operator, savedValues(await repo.readStored(db)));
}

/** What each missing setting disables: invoice documents (the seller's identity), SEPA files (the account). */
export function operatorGaps(operator: OperatorIdentity): { invoices: OperatorField[]; sepa: OperatorField[] } {
  const byVariable = new Map(OPERATOR_FIELDS.map((field) => [OPERATOR_ENV[field], field]));
  const sepa: OperatorField[] = [];
  if (!operator.iban || !isValidIBAN(operator.iban)) sepa.push('iban');
  if (!operator.bic || !isValidBIC(operator.bic)) sepa.push('bic');
  return { invoices: missingOperatorIdentity(operator).map((variable) => byVariable.get(variable)!), sepa };
}

/**
 * The start-up warning: every setting whose absence disables something, named by its variable,
 * with what it disables; null when none is missing.
 */
export function operatorWarning(operator: OperatorIdentity): { variables: string[]; message: string } | null {
  const gaps = operatorGaps(operator);
  const names = (fields: readonly OperatorField[]) => fields.map((field) => OPERATOR_ENV[field]).join(', ');
  const parts: string[] = [];
  if (gaps.invoices.length > 0) parts.push(`${names(gaps.invoices)} (invoice documents, Factur-X)`);
  if (gaps.sepa.length > 0) parts.push(`${names(gaps.sepa)} (SEPA files: salary transfer batches, invoices paid by transfer)`);
  if (parts.length === 0) return null;
  return {
    variables: [...gaps.invoices, ...gaps.sepa].map((field) => OPERATOR_ENV[field]),
    message: `operator settings missing, set them on /staff/operateur or with these variables: ${parts.join('; ')}`,
  };
}

function view(operator: OperatorIdentity, stored: repo.StoredSettings) {
  return {
    ...operator,
    saved: OPERATOR_FIELDS.filter((field) => stored[field] !== null),
    missing: operatorGaps(operator),
    updated_at: stored.updated_at?.toISOString() ?? null,
  };
}

/** `GET /api/staff/operator`: the settings in force, which are saved here, and what is missing. */
export async function readOperatorSettings(db: Database, config: Pick<Config, 'operator'>) {
  const stored = await repo.readStored(db);
  return view(withOperatorValues(config.operator, savedValues(stored)), stored);
}

export type OperatorSettingsInput = Partial<Record<OperatorField, unknown>>;

/** One setting as given: a text (written by the rules, then checked; empty is "none"), or null (the environment's again). */
function parseSetting(field: OperatorField, raw: unknown): string | null {
  if (raw === null) return null;
  const value = typeof raw === 'string' ? normalizeOperatorValue(field, raw) : raw;
  if (field === 'name' && value === '') throw operatorErrors.missingName();
  return value === '' ? '' : checkField(OperatorSettingFields[field], value);
}

/**
 * `PATCH /api/staff/operator` (and seed-demo): the fields given, checked by the rules the
 * environment variables are checked by (400 `invalid_<field>`), and the SIRET against the SIREN
 * that applies. The caller (null: the command line).
 */
export async function updateOperatorSettings(
  ctx: ChangeContext,
  config: Pick<Config, 'operator'>,
  caller: { userId: string; email: string } | null,
  input: OperatorSettingsInput,
) {
  const changes: Partial<Record<OperatorField, string | null>> = {};
  for (const field of OPERATOR_FIELDS) {
    if (input[field] !== undefined) changes[field] = parseSetting(field, input[field]);
  }
  return applyChange(ctx, async (change) => {
    const current = await repo.lockStored(change.trx);
    const next = { ...current, ...changes };
    const values = savedValues(next);
    const operator = withOperatorValues(config.operator, values);
    // The SIREN typed (or the environment's own, when it has no SIRET to follow) must lead the SIRET in force.
    const siren = values.siren ?? (config.operator.siret ? '' : config.operator.siren);
    if (!siretMatchesSiren(operator.siret, siren)) throw operatorErrors.siretNotOfSiren(siren);
    const changed = OPERATOR_FIELDS.filter((field) => field in changes && changes[field] !== current[field]);
    if (changed.length > 0) {
      await repo.saveStored(change.trx, changes);
      await change.event({
        org_id: null,
        action: 'operator.updated',
        subject_type: 'operator',
        subject_id: 'operator',
        ...actorOf(caller),
        details: { changed },
      });
    }
    return view(operator, changed.length > 0 ? await repo.readStored(change.trx) : current);
  });
}
