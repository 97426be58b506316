/**
 * Stored files and the application's generated secrets.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // `content` holds the bytes in the database (the default store); it is null when they are
  // in S3 (STORAGE_URL), where the object is named after the id.
  await sql
    .raw(`
    create table public.files (
      id uuid primary key default gen_random_uuid(),
      org_id uuid references public.organizations(id) on delete cascade,
      filename text not null check (length(filename) between 1 and 255),
      content_type text not null,
      size integer not null check (size >= 0),
      content bytea,
      created_at timestamptz not null default now()
    )`)
    .execute(db);
  // PDFs are compressed already: storing them uncompressed (out of line) spares a vain
  // compression on write and a decompression on every download.
  await sql.raw('alter table public.files alter column content set storage external').execute(db);
  await sql.raw('create index files_org_idx on public.files (org_id)').execute(db);
  // Secrets every instance must share (the key of signed file URLs), generated once.
  await sql
    .raw(`
    create table public.app_secrets (
      name text primary key,
      value bytea not null,
      created_at timestamptz not null default now()
    )`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table public.app_secrets').execute(db);
  await sql.raw('drop table public.files').execute(db);
}
