// Raw Bun.password.verify (or, with BENCH_OP=hash, Bun.password.hash) throughput with the service's argon2id
// parameters (service/src/auth/passwords.ts) and its hashing concurrency (GATEHOUSE_PASSWORD_HASH_CONCURRENCY,
// default 2 × max(2, cores), as config.ts), for BENCH_SECONDS: the ceiling of password sign-in (verify) and sign-up
// (hash).
const ARGON2 = { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 } as const;
export {};
const concurrency = Number(process.env.GATEHOUSE_PASSWORD_HASH_CONCURRENCY ?? 2 * Math.max(2, navigator.hardwareConcurrency ?? 2));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const op = process.env.BENCH_OP === 'hash' ? 'hash' : 'verify';
const password = 'bench-password-1';
const hash = await Bun.password.hash(password, ARGON2);
// One operation as the service runs it: a verify that must succeed, or a hash with a fresh salt.
const once = op === 'hash'
  ? async () => { if (!(await Bun.password.hash(password, ARGON2)).startsWith('$argon2id$')) throw new Error('hash failed'); }
  : async () => { if (!(await Bun.password.verify(password, hash))) throw new Error('verify failed'); };
for (let i = 0; i < concurrency; i++) await once(); // warm-up

const latencies: number[] = [];
const cpu0 = process.cpuUsage();
const end = performance.now() + seconds * 1000;
const t0 = performance.now();
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (performance.now() < end) {
    const s = performance.now();
    await once();
    latencies.push(performance.now() - s);
  }
}));
const elapsed = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
console.log(`BENCH_JSON ${JSON.stringify({ requests: latencies.length, rps: latencies.length / elapsed, p50_ms: pct(50), p99_ms: pct(99), max_ms: latencies.at(-1), non2xx: 0, errors: 0, op, concurrency, cpu_us_per_op: (cpu.user + cpu.system) / latencies.length })}`);
