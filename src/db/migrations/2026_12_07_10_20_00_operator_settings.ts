/**
 * The operator's identity and bank account as settings staff edit (one row): a column left
 * null takes its environment variable (the default); a saved value, even empty, wins. And a
 * salary transfer batch's SEPA file, stored when the batch is made: a batch is executed only
 * with its file (the check holds for every batch written from now on; those executed before
 * keep what they have).
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table public.operator_settings (
    id boolean primary key default true constraint operator_settings_one_row check (id),
    name text constraint operator_settings_name_check check (char_length(name) <= 200),
    siren text constraint operator_settings_siren_check check (siren ~ '^([0-9]{9})?$'),
    siret text constraint operator_settings_siret_check check (siret ~ '^([0-9]{14})?$'),
    vat text constraint operator_settings_vat_check check (vat ~ '^([A-Z]{2}[A-Z0-9]{2,13})?$'),
    address text constraint operator_settings_address_check check (char_length(address) <= 200),
    postcode text constraint operator_settings_postcode_check check (postcode ~ '^([0-9]{5})?$'),
    city text constraint operator_settings_city_check check (char_length(city) <= 200),
    iban text constraint operator_settings_iban_check check (iban ~ '^([A-Z]{2}[0-9]{2}[A-Z0-9]{11,30})?$'),
    bic text constraint operator_settings_bic_check check (bic ~ '^([A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?)?$'),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`alter table public.transfers add column sepa_file_id uuid`.execute(db);
  // Not valid: rows written before are not checked, every row written from now on is.
  await sql`alter table public.transfers add constraint transfers_executed_with_file
    check (status <> 'execute' or sepa_file_id is not null) not valid`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.transfers drop constraint if exists transfers_executed_with_file`.execute(db);
  await sql`alter table public.transfers drop column if exists sepa_file_id`.execute(db);
  await sql`drop table if exists public.operator_settings`.execute(db);
}
