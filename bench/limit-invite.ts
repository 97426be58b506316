/**
 * The limit of `POST /api/access` (an invitation): one Fastify route that writes the rows an
 * invitation writes (the account, its sign-in preferences, the membership, the per-address
 * counter of invitations, the one-time token, the outbox row with the rendered activation
 * e-mail, the audit event) in ONE statement, a data-modifying CTE, through `pg`. No
 * authentication, no validation beyond what JSON parsing does, no mail worker. The e-mail is
 * rendered by the service's own template (the outbox row holds the same bytes).
 *
 * `POST /api/access?org=<uuid>&actor=<uuid>` with the service's body (`email`, `role`,
 * `first_name`); the organization's name and the actor's e-mail are read once per pair, then
 * kept. Answers what the service answers: `{"ok":true,"message":"Invitation envoyée"}`.
 * Environment: `DATABASE_URL`, `PORT`, `LIMIT_POOL` (default 10, like the service's).
 */
import Fastify from 'fastify';
import pg from 'pg';
import { issueToken } from '../src/identity/tokens.ts';
import { activationEmail } from '../src/access/access.mail.ts';
import type { Inviter } from '../src/mail/templates.ts';
import { roleLabel } from '../src/org/role.labels.ts';
import { serveLimit } from './limit-serve.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.LIMIT_POOL ?? 10) });
const PUBLIC_URL = `http://localhost:${process.env.PORT ?? 3100}`;
const INVITE_MS = 7 * 24 * 3600_000;
const WINDOW_MS = 15 * 60_000;

const INVITE_SQL = `
  with u as (
    insert into auth.users (email, user_metadata) values ($1, $2::jsonb)
    on conflict (email) do nothing
    returning id
  ), p as (
    insert into public.user_auth_preferences (user_id, allow_magic_link, allow_password) select id, true, false from u
  ), m as (
    insert into public.organization_members (org_id, user_id, role, revoked) select $3, id, $4, false from u
  ), r as (
    insert into public.rate_limits as r (key, hits, expires_at) values ('invitation ' || $1, 1, now() + $5 * interval '1 millisecond')
    on conflict (key) do update set hits = r.hits + 1
  ), t as (
    insert into auth.one_time_tokens (id, user_id, kind, org_id, secret_hash, expires_at)
    select $6, id, 'invite', $3, $7, now() + $8 * interval '1 millisecond' from u
  ), o as (
    insert into public.mail_outbox (kind, recipient, subject, text_body, html_body) select 'activation', $1, $9, $10, $11 from u
  ), e as (
    insert into public.access_events (org_id, action, actor_user_id, actor_email, target_user_id, target_email, old_role, new_role)
    select $3, 'invited', $12, $13, id, $1, null, $4 from u
  )
  select id from u`;

interface Context {
  orgName: string;
  actorEmail: string;
  inviter: Inviter;
}
const contexts = new Map<string, Promise<Context>>();

async function contextOf(orgId: string, actorId: string): Promise<Context> {
  const { rows } = await pool.query<{ name: string; email: string; first_name: string | null; role: string }>(
    `select o.name, u.email, u.user_metadata->>'first_name' as first_name, m.role
       from public.organizations o, auth.users u join public.organization_members m on m.user_id = u.id
      where o.id = $1 and u.id = $2 and m.org_id = o.id`,
    [orgId, actorId],
  );
  const row = rows[0]!;
  return {
    orgName: row.name,
    actorEmail: row.email,
    inviter: { firstName: row.first_name, email: row.email, status: roleLabel(row.role) },
  };
}

const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ ok: true }));

app.post<{ Querystring: { org: string; actor: string }; Body: { email: string; role?: string; first_name?: string } }>('/api/access', async (request) => {
  const { org, actor } = request.query;
  const key = `${org} ${actor}`;
  let context = contexts.get(key);
  if (!context) {
    context = contextOf(org, actor);
    contexts.set(key, context);
  }
  const { orgName, actorEmail, inviter } = await context;
  const email = request.body.email.trim().toLowerCase();
  const role = (request.body.role ?? 'AGENT').toUpperCase();
  const firstName = request.body.first_name?.trim() || null;
  const token = issueToken();
  const mail = activationEmail({
    firstName,
    orgName,
    role,
    inviter,
    activationUrl: `${PUBLIC_URL}/activate#token=${encodeURIComponent(token.token)}&type=invite`,
    supportEmail: 'support@localhost',
  });
  const metadata = JSON.stringify({ first_name: firstName, role, org_id: org, org_name: orgName });
  await pool.query(INVITE_SQL, [
    email,
    metadata,
    org,
    role,
    WINDOW_MS,
    token.id,
    token.secretHash,
    INVITE_MS,
    mail.subject,
    mail.text,
    mail.html,
    actor,
    actorEmail,
  ]);
  return { ok: true, message: 'Invitation envoyée' };
});

await serveLimit(app, pool, 'invitation, one CTE');
