/**
 * Factur-X invoices and credit notes: the buyer's postal address on
 * organizations, credit notes (avoirs) in the invoices table with their own series
 * A-YYYY-NNNNNN, and the stored `factur-x.xml` beside the PDF.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // The buyer's address; country ISO 3166 alpha-2, FR by default.
  await sql`alter table public.organizations
    add column address_line text,
    add column postcode text,
    add column city text,
    add column country text not null default 'FR'
      constraint organizations_country_check check (country ~ '^[A-Z]{2}$')`.execute(db);
  // A credit note is a row of invoices of kind 'avoir', numbered A-YYYY-NNNNNN
  // (series 'credit_note'), referring to the invoice it credits, with its reason.
  await sql`alter table public.invoices
    drop constraint invoices_number_check,
    add column kind text not null default 'facture'
      constraint invoices_kind_check check (kind in ('facture', 'avoir')),
    add column credited_invoice_id uuid references public.invoices(id) on delete restrict,
    add column credit_reason text,
    add column xml_id text,
    add constraint invoices_number_check check (number ~ '^[FA]-[0-9]{4}-[0-9]{6}$'),
    add constraint invoices_kind_number_check check ((kind = 'avoir') = (number like 'A-%')),
    add constraint invoices_credit_check
      check ((kind = 'avoir') = (credited_invoice_id is not null and credit_reason is not null))`.execute(db);
  // The credit notes of an invoice, summed under its lock (never more credited than invoiced).
  await sql`create index invoices_credited_idx on public.invoices (credited_invoice_id) where credited_invoice_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists public.invoices_credited_idx`.execute(db);
  await sql`alter table public.invoices
    drop constraint if exists invoices_credit_check,
    drop constraint if exists invoices_kind_number_check,
    drop constraint if exists invoices_number_check,
    drop column if exists xml_id,
    drop column if exists credit_reason,
    drop column if exists credited_invoice_id,
    drop column if exists kind,
    add constraint invoices_number_check check (number ~ '^F-[0-9]{4}-[0-9]{6}$')`.execute(db);
  await sql`alter table public.organizations
    drop column if exists country,
    drop column if exists city,
    drop column if exists postcode,
    drop column if exists address_line`.execute(db);
}
