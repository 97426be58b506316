// Temporary experiment 3: per-row expression CPU in PostgreSQL. Deleted before hand-off.
import pg from 'pg';
import fs from 'node:fs';
const url = 'postgres://postgres@127.0.0.1:5432/payroll_bench';
const FIRST = `coalesce(nullif(btrim(u.user_metadata->>'first_name'), ''), nullif(split_part(btrim(u.user_metadata->>'display_name'), ' ', 1), ''))`;
const iso = (c: string) => `to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const B = (c: string) => `case when ${c} then 'true' else 'false' end`;
const E: Record<string, string> = {
  base: `m.role`,
  email: `u.email`,
  first: FIRST,
  tochar: iso('m.created_at'),
  tojson: `to_json(u.email)::text`,
  jb: `json_build_object('org_id', m.org_id, 'user_id', m.user_id, 'first_name', ${FIRST}, 'email', coalesce(u.email, 'Email non disponible'), 'role', m.role, 'created_at', ${iso('m.created_at')}, 'revoked', m.revoked, 'revoked_at', ${iso('m.revoked_at')}, 'activated', coalesce(u.activated_at is not null, false))::text`,
  cat: `'{"org_id":"' || m.org_id || '","user_id":"' || m.user_id || '","first_name":' || coalesce(to_json(${FIRST})::text, 'null') || ',"email":' || to_json(coalesce(u.email, 'Email non disponible'))::text || ',"role":"' || m.role || '","created_at":"' || ${iso('m.created_at')} || '","revoked":' || ${B('m.revoked')} || ',"revoked_at":' || coalesce('"' || ${iso('m.revoked_at')} || '"', 'null') || ',"activated":' || ${B('u.activated_at is not null')} || '}'`,
  concat: `concat('{"org_id":"', m.org_id, '","user_id":"', m.user_id, '","first_name":', coalesce(to_json(${FIRST})::text, 'null'), ',"email":', to_json(coalesce(u.email, 'Email non disponible'))::text, ',"role":"', m.role, '","created_at":"', ${iso('m.created_at')}, '","revoked":', ${B('m.revoked')}, ',"revoked_at":', coalesce('"' || ${iso('m.revoked_at')} || '"', 'null'), ',"activated":', ${B('u.activated_at is not null')}, '}')`,
  concatnochar: `concat('{"org_id":"', m.org_id, '","user_id":"', m.user_id, '","first_name":', coalesce(to_json(${FIRST})::text, 'null'), ',"email":', to_json(coalesce(u.email, 'Email non disponible'))::text, ',"role":"', m.role, '","created_at":"', m.created_at, '","revoked":', ${B('m.revoked')}, ',"revoked_at":', coalesce('"' || m.revoked_at || '"', 'null'), ',"activated":', ${B('u.activated_at is not null')}, '}')`,
};
function cpu(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}
const c = new pg.Client({ connectionString: url });
await c.connect();
await c.query('set max_parallel_workers_per_gather = 0; set jit = off');
const pid = (await c.query('select pg_backend_pid() as p')).rows[0].p;
for (const name of process.argv.slice(2)) {
  const b0 = cpu(pid);
  await c.query(`select sum(length(${E[name]})) from public.organization_members m left join auth.users u on u.id = m.user_id`);
  console.log(name.padEnd(14), (cpu(pid) - b0).toFixed(2), 's cpu');
}
await c.end();
