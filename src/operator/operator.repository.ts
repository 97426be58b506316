/** SQL of the operator's settings: one row, created on the first save. */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { OperatorField } from '../operator.rules.ts';

const COLUMNS = ['name', 'siren', 'siret', 'vat', 'address', 'postcode', 'city', 'iban', 'bic', 'updated_at'] as const;

export type StoredSettings = Record<OperatorField, string | null> & { updated_at: Date | null };

const NOTHING_SAVED: StoredSettings = {
  name: null,
  siren: null,
  siret: null,
  vat: null,
  address: null,
  postcode: null,
  city: null,
  iban: null,
  bic: null,
  updated_at: null,
};

/** What staff saved (nulls: nothing saved, the environment applies). */
export async function readStored(db: Database): Promise<StoredSettings> {
  return (await db.selectFrom('operator_settings').select(COLUMNS).executeTakeFirst()) ?? NOTHING_SAVED;
}

/** The row, locked until the end of the transaction: two saves at once apply one after the other. */
export async function lockStored(db: Database): Promise<StoredSettings> {
  await db
    .insertInto('operator_settings')
    .values({ id: true })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db.selectFrom('operator_settings').select(COLUMNS).forUpdate().executeTakeFirstOrThrow();
}

export async function saveStored(db: Database, values: Partial<Record<OperatorField, string | null>>): Promise<void> {
  await db
    .updateTable('operator_settings')
    .set({ ...values, updated_at: sql`now()` })
    .where('id', '=', true)
    .execute();
}
