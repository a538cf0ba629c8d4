// Runs a command (the service under test) and ends it when the test runner that started us is gone:
// `bun test` exits without running exit hooks, so the shared service would otherwise outlive every test run.
const [cmd, ...args] = process.argv.slice(2);
const parentPid = process.ppid;
const child = Bun.spawn([cmd!, ...args], { stdio: ['ignore', 'inherit', 'inherit'], env: process.env });

for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
const watchdog = setInterval(() => { if (process.ppid !== parentPid) child.kill('SIGKILL'); }, 500);

const code = await child.exited;
clearInterval(watchdog);
process.exit(code);
export {};
