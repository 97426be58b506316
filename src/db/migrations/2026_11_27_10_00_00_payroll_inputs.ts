/**
 * The inputs of the payroll run: what the model needs to know of an organization
 * (its headcount, collective agreement, legal form and AT/MP rate) and of an employee (cadre
 * status, personalised withholding rate). Rates are percentages as `vat_rate`:
 * `numeric(5,2)`, 0 to 100; null means absent (the model's default, the neutral grid).
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table public.organizations
    add column effectif integer not null default 1
      constraint organizations_effectif_check check (effectif >= 1),
    add column convention text not null default 'SVP'
      constraint organizations_convention_check check (convention in ('SVP', 'droit_commun')),
    add column categorie_juridique text not null default 'association'
      constraint organizations_categorie_juridique_check
      check (categorie_juridique in ('association', 'SARL', 'SAS', 'SELARL', 'SELAS', 'EI', 'autre')),
    add column taux_at numeric(5,2)
      constraint organizations_taux_at_check check (taux_at >= 0 and taux_at <= 100)`.execute(db);
  await sql`alter table public.employees
    add column cadre boolean not null default false,
    add column pas_rate numeric(5,2)
      constraint employees_pas_rate_check check (pas_rate >= 0 and pas_rate <= 100)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.employees drop column if exists pas_rate, drop column if exists cadre`.execute(db);
  await sql`alter table public.organizations
    drop column if exists taux_at,
    drop column if exists categorie_juridique,
    drop column if exists convention,
    drop column if exists effectif`.execute(db);
}
