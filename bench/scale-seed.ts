// Set-based seeding of one project up to N users for `npm run bench:scale` (bench/scale.ts), straight into the real
// schema. Users with index in (from, to] get: a primary email contact channel (auth, 80% verified), 10% a second
// address, one or two sessions (sha256 of a random refresh token, as the service stores them), realistic metadata,
// sign-up times over two years, last activity for 30%, three activity days in the last month with a country for
// 30%, and every fifth user in a team of 50 (that team selected).
// The rows are written with session_replication_role = replica: row triggers (the user summary of
// drizzle/0003, the metric counters of drizzle/0016) and FK checks are skipped, so what those triggers would write is
// written here directly (the users' summary columns), and the counters are recounted from the rows afterwards by the
// migration's own gatehouse_rebuild_metric_counts(). bench/scale.ts checks a sample against the triggers' function.
import type { Sql, TransactionSql } from 'postgres';

const FIRST = ['Ada', 'Ben', 'Chloé', 'Dmitri', 'Elena', 'Farah', 'Gustav', 'Hana', 'Ivan', 'Jana', 'Kofi', 'Lena', 'Mateo', 'Nadia', 'Olu',
  'Priya', 'Quentin', 'Rosa', 'Sven', 'Tomás', 'Uma', 'Viktor', 'Wen', 'Ximena', 'Yusuf', 'Zoe', 'Aiko', 'Bruno', 'Carmen', 'Diego'];
const SYLLABLES = ['kor', 'ven', 'mal', 'sta', 'ber', 'lin', 'dro', 'vik', 'sol', 'ham', 'ner', 'tal', 'gus', 'fer', 'wit', 'mon',
  'ras', 'pel', 'dun', 'ker', 'bao', 'lund', 'ric', 'zar', 'hof', 'mar', 'nov', 'sel', 'tor', 'quin'];
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'IN', 'BR', 'JP', 'NG', 'CA', 'ES'];

const arr = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(',')}]`;
// The person behind index i (also used by bench/scale.ts to build search fragments for a known user).
export function personOf(i: number) {
  const first = FIRST[i % FIRST.length];
  const s = SYLLABLES.length;
  const last = SYLLABLES[Math.floor(i / 7) % s] + SYLLABLES[Math.floor(i / 211) % s] + SYLLABLES[Math.floor(i / 6299) % s];
  const surname = last[0].toUpperCase() + last.slice(1);
  return { name: `${first} ${surname}`, email: `${first.toLowerCase()}.${last}.${i}@example.com` };
}
const userId = (p: string) => `md5('${p}:u:' || g.i)::uuid`;
const SQL_FIRST = `(${arr(FIRST)})[1 + g.i % ${FIRST.length}]`;
const SQL_LAST = `(${arr(SYLLABLES)})[1 + (g.i / 7) % ${SYLLABLES.length}] || (${arr(SYLLABLES)})[1 + (g.i / 211) % ${SYLLABLES.length}] || (${arr(SYLLABLES)})[1 + (g.i / 6299) % ${SYLLABLES.length}]`;
const SQL_EMAIL = `lower(${SQL_FIRST}) || '.' || ${SQL_LAST} || '.' || g.i || '@example.com'`;

/** Seeds users (from, to] of project `p`; `passwordHash` is one real argon2id hash given to 60% of them. */
export async function seedUsers(sql: Sql, p: string, from: number, to: number, passwordHash: string) {
  await sql.begin((tx) => seedRows(tx, p, from, to, passwordHash));
}

/** The statements of `seedUsers`, inside the caller's transaction. */
export async function seedRows(tx: TransactionSql, p: string, from: number, to: number, passwordHash: string) {
  for (const statement of seedStatements(p, from, to, passwordHash)) await tx.unsafe(statement);
}

/** The SQL statements seeding users (from, to] of project `p`, to run in one transaction (also used by service/test/query-plans.test.ts). */
export function seedStatements(p: string, from: number, to: number, passwordHash: string): string[] {
  const range = `generate_series(${from + 1}, ${to}) as g(i)`;
  return [
    `set local session_replication_role = replica`,
    `insert into teams (id, project_id, display_name, client_metadata, created_at)
      select md5('${p}:t:' || g.i)::uuid, '${p}', 'Team ' || g.i, jsonb_build_object('plan', (array['free','pro','enterprise'])[1 + g.i % 3]),
        now() - (g.i % 700) * interval '1 day'
      from generate_series(${Math.floor((from + 1) / 250)}, ${Math.floor(to / 250)}) as g(i)
      on conflict (id) do nothing`,
    `insert into users (id, project_id, display_name, client_metadata, client_read_only_metadata, server_metadata,
        password_hash, created_at, last_active_at, primary_email, primary_email_verified, primary_email_auth_enabled, selected_team_id)
      select ${userId(p)}, '${p}', ${SQL_FIRST} || ' ' || initcap(${SQL_LAST}),
        jsonb_build_object('locale', (array['en-US','de-DE','fr-FR','ja-JP'])[1 + g.i % 4], 'theme', case when g.i % 3 = 0 then 'dark' else 'light' end),
        jsonb_build_object('plan', (array['free','pro','team'])[1 + g.i % 3]),
        jsonb_build_object('crm_id', 'c' || g.i, 'segment', (array['smb','mid','ent'])[1 + g.i % 3], 'notes', repeat('x', g.i % 40)),
        case when g.i % 5 < 3 then '${passwordHash}' end,
        c.at, case when g.i % 10 < 3 then c.at + (now() - c.at) * ((g.i % 97) / 97.0) end,
        ${SQL_EMAIL}, g.i % 5 <> 0, true,
        case when g.i % 5 = 0 then md5('${p}:t:' || (g.i / 250))::uuid end
      from ${range}, lateral (select now() - ((g.i::bigint * 7919) % 63072000) * interval '1 second' as at) c`,
    `insert into contact_channels (project_id, user_id, type, value, is_verified, is_primary, used_for_auth, created_at)
      select '${p}', ${userId(p)}, 'email', ${SQL_EMAIL}, g.i % 5 <> 0, true, true, now() - ((g.i::bigint * 7919) % 63072000) * interval '1 second' from ${range}
      union all
      select '${p}', ${userId(p)}, 'email', 'work.' || g.i || '@corp-' || (g.i % 997) || '.example', false, false, false, now()
      from ${range} where g.i % 10 = 0`,
    `insert into sessions (project_id, user_id, refresh_token_hash, expires_at, last_used_at, created_at)
      select '${p}', ${userId(p)}, encode(sha256(convert_to(gen_random_uuid()::text || ':' || g.i || ':' || s.k, 'UTF8')), 'hex'), now() + interval '300 days', now() - (g.i % 30) * interval '1 day',
        now() - (g.i % 60) * interval '1 day'
      from ${range}, generate_series(1, 1 + (g.i % 2)) as s(k)`,
    `insert into team_members (project_id, team_id, user_id, is_selected, created_at)
      select '${p}', md5('${p}:t:' || (g.i / 250))::uuid, ${userId(p)}, true, now() - (g.i % 500) * interval '1 hour'
      from ${range} where g.i % 5 = 0`,
    `insert into user_activity_days (project_id, user_id, day, country_code)
      select '${p}', ${userId(p)}, (now() at time zone 'utc')::date - ((g.i * 7 + d.j * 11) % 31), (${arr(COUNTRIES)})[1 + (g.i + d.j) % ${COUNTRIES.length}]
      from ${range}, generate_series(0, 2) as d(j) where g.i % 10 < 3`,
  ];
}
