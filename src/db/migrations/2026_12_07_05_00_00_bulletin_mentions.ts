/**
 * What the bulletin clarifié names beyond the payroll inputs: the employer's APE code and the
 * URSSAF it pays contributions to; the employee's postal address and classification (the
 * collective agreement's level or group); the day a validated payslip is paid.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table public.organizations
    add column ape_code text
      constraint organizations_ape_code_check check (ape_code ~ '^[0-9]{4}[A-Z]$'),
    add column urssaf text
      constraint organizations_urssaf_check check (char_length(urssaf) between 1 and 120)`.execute(db);
  await sql`alter table public.employees
    add column address_line text
      constraint employees_address_line_check check (char_length(address_line) between 1 and 200),
    add column postcode text
      constraint employees_postcode_check check (char_length(postcode) between 1 and 12),
    add column city text
      constraint employees_city_check check (char_length(city) between 1 and 100),
    add column classification text
      constraint employees_classification_check check (char_length(classification) between 1 and 120)`.execute(db);
  await sql`alter table public.payslips add column payment_date date`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.payslips drop column if exists payment_date`.execute(db);
  await sql`alter table public.employees
    drop column if exists classification,
    drop column if exists city,
    drop column if exists postcode,
    drop column if exists address_line`.execute(db);
  await sql`alter table public.organizations drop column if exists urssaf, drop column if exists ape_code`.execute(db);
}
