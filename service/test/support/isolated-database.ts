// A service that must not share its database with the test process's other services: on PostgreSQL every
// instance's email worker drains the same outbox table and delivers "shared" mail to its own SMTP_URL, so a
// test with its own SMTP server gets a database of its own.
/** Under DATABASE_URL, a fresh database next to it (dropped afterwards); otherwise nothing (PGlite per service). */
/** With `postgres: true`, a PostgreSQL database even in the PGlite run (the machine's local server), for tests that need concurrent connections. */
export async function isolatedDatabase(o: { postgres?: boolean } = {}): Promise<{ url?: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL ?? (o.postgres ? 'postgres://postgres@127.0.0.1:5432/postgres' : undefined);
  if (!base) return { drop: async () => {} };
  const { default: postgres } = await import('postgres');
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const name = `gh_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
