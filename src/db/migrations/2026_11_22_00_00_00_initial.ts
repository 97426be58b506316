/**
 * The whole initial schema: the identity provider in `auth`, the organization side in `public`.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

const statements = [
  `create schema if not exists auth`,

  // Accounts held by the identity provider.
  `create table auth.users (
     id uuid primary key default gen_random_uuid(),
     email text not null unique check (email = lower(email) and email <> ''),
     user_metadata jsonb not null default '{}'::jsonb,
     activated_at timestamptz,
     created_at timestamptz not null default now()
   )`,

  // One-time tokens (invitation, sign-in link). Only the SHA-256 of the secret is kept.
  `create table auth.one_time_tokens (
     id text primary key,
     user_id uuid not null references auth.users(id) on delete cascade,
     kind text not null check (kind in ('invite', 'magiclink')),
     secret_hash text not null,
     expires_at timestamptz not null,
     used_at timestamptz,
     created_at timestamptz not null default now()
   )`,
  `create index one_time_tokens_user_idx on auth.one_time_tokens (user_id, kind)`,

  `create table auth.sessions (
     id text primary key,
     user_id uuid not null references auth.users(id) on delete cascade,
     secret_hash text not null,
     expires_at timestamptz not null,
     last_verified_at timestamptz not null default now(),
     created_at timestamptz not null default now()
   )`,
  `create index sessions_user_idx on auth.sessions (user_id)`,

  // Organizations.
  `create table public.organizations (
     id uuid primary key default gen_random_uuid(),
     name text not null check (name <> ''),
     structure_api text unique,
     email_notifs text,
     email_notifs_cc text,
     virements_salaires text,
     documents_slug text,
     created_at timestamptz not null default now()
   )`,
  `create index organizations_name_idx on public.organizations (name)`,

  // Memberships: unique on the pair, one SUPER_ADMIN per organization.
  `create table public.organization_members (
     org_id uuid not null references public.organizations(id) on delete cascade,
     user_id uuid not null references auth.users(id) on delete cascade,
     role text not null check (role in ('ADMIN', 'SUPER_ADMIN', 'AGENT', 'COMPTA')),
     revoked boolean not null default false,
     created_at timestamptz not null default clock_timestamp(),
     revoked_at timestamptz,
     primary key (org_id, user_id)
   )`,
  `create unique index organization_members_one_super_admin
     on public.organization_members (org_id) where role = 'SUPER_ADMIN'`,
  // Lists read newest first with keyset pagination: scanned backwards.
  `create index organization_members_org_created_idx
     on public.organization_members (org_id, created_at, user_id)`,
  `create index organization_members_created_idx
     on public.organization_members (created_at, org_id, user_id)`,
  `create index organization_members_user_idx on public.organization_members (user_id)`,

  // Staff. Revoking a staff member clears is_staff; the row stays for the record.
  `create table public.staff_users (
     user_id uuid primary key references auth.users(id) on delete cascade,
     is_staff boolean not null default true,
     level text not null default 'STAFF' check (level in ('STAFF', 'SUPER_STAFF')),
     created_at timestamptz not null default now(),
     revoked_at timestamptz
   )`,
  `create table public.staff_settings (
     user_id uuid primary key references auth.users(id) on delete cascade,
     active_org_id uuid references public.organizations(id) on delete set null
   )`,
  `create table public.user_auth_preferences (
     user_id uuid primary key references auth.users(id) on delete cascade,
     allow_magic_link boolean not null default true,
     allow_password boolean not null default false
   )`,

  // The mail outbox: written in the transaction of the change, sent by a worker.
  `create table public.mail_outbox (
     id bigint generated always as identity primary key,
     kind text not null,
     recipient text not null,
     subject text not null,
     text_body text not null,
     html_body text not null,
     status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
     attempts integer not null default 0,
     next_attempt_at timestamptz not null default now(),
     locked_until timestamptz,
     last_error text,
     created_at timestamptz not null default now(),
     sent_at timestamptz
   )`,
  `create index mail_outbox_due_idx on public.mail_outbox (next_attempt_at) where status = 'pending'`,

  // The audit trail of access changes.
  `create table public.access_events (
     id bigint generated always as identity primary key,
     org_id uuid references public.organizations(id) on delete cascade,
     action text not null,
     actor_user_id uuid references auth.users(id) on delete set null,
     actor_email text,
     target_user_id uuid references auth.users(id) on delete set null,
     target_email text,
     old_role text,
     new_role text,
     created_at timestamptz not null default clock_timestamp()
   )`,
  `create index access_events_org_idx on public.access_events (org_id, id desc)`,

  // Account lookup by e-mail.
  `create function public.find_user_by_email(email_param text)
     returns table (id uuid, email text, user_metadata jsonb, activated_at timestamptz)
     language sql stable
   as $$
     select u.id, u.email, u.user_metadata, u.activated_at
       from auth.users u
      where u.email = lower(btrim(email_param))
   $$`,

  // The one organization of a non-staff caller, its oldest active membership.
  `create function public.get_my_org(user_id_param uuid)
     returns uuid
     language sql stable
   as $$
     select m.org_id
       from public.organization_members m
      where m.user_id = user_id_param and not m.revoked
      order by m.created_at, m.org_id
      limit 1
   $$`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of [
    'drop function if exists public.get_my_org(uuid)',
    'drop function if exists public.find_user_by_email(text)',
    'drop table if exists public.access_events',
    'drop table if exists public.mail_outbox',
    'drop table if exists public.user_auth_preferences',
    'drop table if exists public.staff_settings',
    'drop table if exists public.staff_users',
    'drop table if exists public.organization_members',
    'drop table if exists public.organizations',
    'drop schema if exists auth cascade',
  ]) {
    await sql.raw(statement).execute(db);
  }
}
