// Entry point: `npm start`. Opens the database (PGlite under ./data unless DATABASE_URL is set), applies
// migrations, bootstraps the internal project and serves the API. `main.ts keys rotate` rotates the signing keys
// and exits instead (commands.ts).
import { loadConfig, redactUrl, serverSecretProblem, sharedSmtpTlsProblem } from './config';
import { openDatabase } from './db';
import { createServices } from './services';
import { createApp } from './app';
import { bootstrapInternalProject } from './bootstrap';
import { bootstrapDemoProject } from './demo-project';
import { startBackgroundWork } from './background';
import { lifecycle } from './lifecycle';
import { initLogging } from './observability/logger';
import { startMetricsServer } from './observability/metrics';
import { initTracing } from './observability/tracing';
import { traceStatements } from './observability/tracing-statements';
import packageJson from '../package.json' with { type: 'json' };
import { COMMANDS, parseCommand, rotateKeysCommand } from './commands';

/** A start that cannot go on: one line naming what is wrong (no stack trace), and a non-zero exit. */
function cannotStart(message: string): never {
  console.error(`Gatehouse cannot start: ${message}`);
  process.exit(1);
}
// `bun service/src/main.ts [serve | keys rotate]` (commands.ts).
const command = parseCommand(process.argv.slice(2));
if (!command) {
  console.error(`Unknown command "${process.argv.slice(2).join(' ')}": expected one of ${COMMANDS.join(', ')}`);
  process.exit(2);
}
const config = (() => {
  try { return loadConfig(); } catch (err) { return cannotStart(err instanceof Error ? err.message : String(err)); }
})();
// In production the root of every key must come from the operator, never from the database (config.ts).
const secretProblem = serverSecretProblem(config);
if (secretProblem) cannotStart(secretProblem);
// Mail carries sign-in codes: in production the shared config's server must be reached over TLS (config.ts).
const smtpTlsProblem = sharedSmtpTlsProblem(config);
if (smtpTlsProblem) cannotStart(smtpTlsProblem);
// Logs (observability/logger.ts) and the Prometheus listener (observability/metrics.ts, off unless a port is set).
const observability = (() => {
  try { return { log: initLogging(config.log), metrics: config.metrics }; } catch (err) { return cannotStart(err instanceof Error ? err.message : String(err)); }
})();
// Traces (observability/tracing.ts): only with an OTLP endpoint; the statements' spans wrap the driver once.
const stopTracing = initTracing(config.tracing, packageJson.version);
if (stopTracing) traceStatements();
// The embedded database suits development and trials, not production: say so at every start (README, "Operating").
if (config.isProduction && !config.databaseUrl) {
  console.warn(`Warning: NODE_ENV=production without DATABASE_URL: the embedded database (PGlite in ${config.dataDir}) is in use. It runs inside this one process on one connection, cannot be shared by several instances, and is backed up only by copying its directory while the service is stopped. Set DATABASE_URL to a PostgreSQL database for production.`);
}
const database = await openDatabase({
  databaseUrl: config.databaseUrl, dataDir: config.dataDir,
  connectTimeoutSeconds: config.dbConnectTimeoutSeconds, statementTimeoutMs: config.dbStatementTimeoutMs,
}).catch((err) => {
  const where = config.databaseUrl ? `DATABASE_URL (${redactUrl(config.databaseUrl)})` : `GATEHOUSE_DATA_DIR (${config.dataDir})`;
  return cannotStart(`cannot open the database at ${where}: ${err instanceof Error ? err.message : String(err)}`);
});
if (command === 'keys rotate') {
  await rotateKeysCommand(config, database).catch((err) => {
    console.error(`keys rotate failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
  await database.close();
  process.exit(0);
}
// Loading the signing keys opens their sealed seeds: another server secret than theirs stops the start, named.
const services = await createServices(config, database).catch((err) => cannotStart(err instanceof Error ? err.message : String(err)));
const boot = await bootstrapInternalProject(services);
const demoCreated = await bootstrapDemoProject(services);
await startBackgroundWork(services);
const app = createApp(services);
// Elysia's listen hands every route to Bun's native router (its own router only sees the rest: 404s, 405s).
// Bun's own body limit stays above the service's, so that the service answers its known error (http/limits.ts).
app.listen({ port: config.port, hostname: config.hostname, development: false, idleTimeout: 60, reusePort: false, maxRequestBodySize: Math.max(config.maxBodyBytes * 2, 128 * 1024 * 1024) });
const server = app.server!;

// With PORT=0 the real port is known only now; links the service builds (OAuth callback URLs) need it.
if (config.port === 0 && !config.publicUrlSet) config.publicUrl = `http://localhost:${server.port}`;

const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
console.log(`Gatehouse listening on http://localhost:${server.port} (database: ${where}${config.isProduction ? ', production' : ''})`);
if (boot.replacedDevKeys) {
  console.log('The internal project still had the public development keys: they are revoked in production. Its new keys are shown only this once:');
} else if (boot.created) {
  console.log(config.isProduction ? 'Internal project created. Its keys are shown only this once:' : 'Internal project created with the development keys:');
}
const shownKeys = boot.keys ?? (boot.devKeysValid ? (await import('./dev-keys')).DEV_KEYS : undefined);
if (shownKeys) {
  console.log(`  project id:              internal\n  publishable client key:  ${shownKeys.publishable_client_key}\n  secret server key:       ${shownKeys.secret_server_key}\n  super secret admin key:  ${shownKeys.super_secret_admin_key}`);
} else {
  console.log('Internal project keys: shown once when they were created (create more with the admin API).');
}
if (demoCreated) console.log(`Demo project created (development only): the demo app at http://localhost:${server.port}/ signs in there; every owner sees it in the console.`);
console.log(`API docs: http://localhost:${server.port}/api/v1/docs`);
if (observability.metrics.port !== undefined) {
  const { port, hostname, token } = observability.metrics;
  const metrics = startMetricsServer(services.db, { port, hostname, token });
  const shown = hostname.includes(':') ? `[${hostname}]` : hostname;
  console.log(`Metrics (Prometheus): http://${shown}:${metrics.port}/metrics${token ? ' (bearer token required)' : ''}`);
}
observability.log.info({ port: server.port, database: database.driver }, 'started');

// Graceful shutdown. New requests are refused at once (503 + Retry-After, before any work; /health?db answers 503
// so load balancers stop sending) while the requests in progress finish, up to GATEHOUSE_SHUTDOWN_DEADLINE_SECONDS.
// Then the listener closes (responses flushed), the workers finish their current item, and the database closes.
// Nothing is cut off mid-write: a request either completes or is refused before any work.
// Safety net: an error no code could catch (a driver callback, a forgotten promise) is logged; it does not end the
// process and every request in progress with it.
process.on('uncaughtException', (err) => console.error('Uncaught exception (the service keeps running):', err));
process.on('unhandledRejection', (err) => console.error('Unhandled rejection (the service keeps running):', err));

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const deadlineMs = config.shutdownDeadlineSeconds * 1000;
  const started = Date.now();
  console.log(`${signal}: shutting down (waiting up to ${config.shutdownDeadlineSeconds} s for ${lifecycle.requestsInFlight} request(s) in progress)`);
  const unfinished = await lifecycle.drain(deadlineMs);
  if (unfinished > 0) console.warn(`Shutdown deadline passed with ${unfinished} request(s) still in progress`);
  const closed = server.stop(unfinished > 0);
  const left = Math.max(1000, deadlineMs - (Date.now() - started));
  if (!(await Promise.race([closed.then(() => true), Bun.sleep(left).then(() => false)]))) await server.stop(true);
  for (const stop of services.onStop) await stop();
  await database.close();
  // The last spans (this shutdown's requests) are sent before the process ends.
  await stopTracing?.().catch(() => {});
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
