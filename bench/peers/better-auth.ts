// Better Auth as a peer of Gatehouse in the sign-in/sign-up bench (`BENCH_PEERS=1 npm run bench`, or
// `npm run bench:peers`): run.sh installs better-auth and pg into a temporary directory outside the repo, copies
// this file there and runs it with Bun, on a fresh database of the same PostgreSQL. The library is used as its docs
// say (betterAuth() over a pg Pool, email and password enabled, its own migrations), with the password hash
// replaced through its hooks by the same argon2id as Gatehouse's (Bun.password, m=19456 t=2, p=1), and its rate
// limiting raised as Gatehouse's is in the bench (the checks still run). Its pool has 16 connections, as
// Gatehouse's. Seeds BENCH_SIGNIN_USERS users through its own sign-up, writes their emails to
// $BENCH_OUT/emails.txt, then prints `ready <port>`.
// The modules are imported by name at run time from the temporary directory (they are not the repo's dependencies).
import { mkdirSync, writeFileSync } from 'node:fs';

const ARGON2 = { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 } as const;
const port = Number(process.env.PORT);
const databaseUrl = process.env.DATABASE_URL!;
const out = process.env.BENCH_OUT!;
const nSignIn = Number(process.env.BENCH_SIGNIN_USERS ?? 200);
const password = process.env.BENCH_PASSWORD ?? 'bench-password-1';

const importByName = (name: string): Promise<any> => import(name);
const { betterAuth } = await importByName('better-auth');
const { getMigrations } = await importByName('better-auth/db/migration');
const { Pool } = await importByName('pg');

const unlimited = { window: 600, max: 1_000_000 };
const auth = betterAuth({
  database: new Pool({ connectionString: databaseUrl, max: 16 }),
  baseURL: `http://127.0.0.1:${port}`,
  secret: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
  emailAndPassword: {
    enabled: true,
    password: {
      hash: (plain: string) => Bun.password.hash(plain, ARGON2),
      verify: ({ hash, password: plain }: { hash: string; password: string }) => Bun.password.verify(plain, hash),
    },
  },
  rateLimit: { enabled: true, ...unlimited, customRules: { '/sign-in/email': unlimited, '/sign-up/email': unlimited } },
  telemetry: { enabled: false },
});
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const server = Bun.serve({ hostname: '127.0.0.1', port, fetch: (req: Request) => auth.handler(req) });

async function call(path: string, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/auth${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path} -> ${res.status}: ${await res.text()}`);
}
mkdirSync(out, { recursive: true });
const emails = Array.from({ length: nSignIn }, (_, i) => `signin${i}@bench.local`);
let next = 0;
await Promise.all(Array.from({ length: 8 }, async () => {
  while (next < emails.length) { const email = emails[next++]!; await call('/sign-up/email', { email, password, name: email }); }
}));
// The sign-in that the bench repeats, once here: a seed that cannot sign in is an error now, not 10 s of non-2xx.
await call('/sign-in/email', { email: emails[0], password });
writeFileSync(`${out}/emails.txt`, emails.join('\n') + '\n');
console.log(`ready ${server.port}`);
