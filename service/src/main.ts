// Entry point: `npm start`. Opens the database (PGlite under ./data unless DATABASE_URL is set), applies
// migrations, bootstraps the internal project and serves the API.
import { loadConfig } from './config';
import { openDatabase } from './db';
import { createServices } from './services';
import { createApp } from './app';
import { bootstrapInternalProject } from './bootstrap';
import { startBackgroundWork } from './background';
import { rememberSocketIp } from './http/client-ip';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const services = await createServices(config, database);
const boot = await bootstrapInternalProject(services);
await startBackgroundWork(services);
const app = createApp(services);
const server = Bun.serve({ port: config.port, hostname: config.hostname, fetch: (request, srv) => app.handle(rememberSocketIp(request, srv.requestIP(request)?.address)), development: false, idleTimeout: 60 });

// With PORT=0 the real port is known only now; links the service builds (OAuth callback URLs) need it.
if (config.port === 0 && !process.env.GATEHOUSE_PUBLIC_URL) config.publicUrl = `http://localhost:${server.port}`;

const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
console.log(`Gatehouse listening on http://localhost:${server.port} (database: ${where}${config.isProduction ? ', production' : ''})`);
if (boot.created && boot.keys) {
  console.log(config.isProduction ? 'Internal project created. Its keys are shown only this once:' : 'Internal project created with the development keys:');
}
if (boot.keys || !config.isProduction) {
  const { DEV_KEYS } = await import('./dev-keys');
  const keys = boot.keys ?? DEV_KEYS;
  console.log(`  project id:              internal\n  publishable client key:  ${keys.publishable_client_key}\n  secret server key:       ${keys.secret_server_key}\n  super secret admin key:  ${keys.super_secret_admin_key}`);
}
console.log(`API docs: http://localhost:${server.port}/api/v1/docs`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  server.stop();
  for (const stop of services.onStop) await stop();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
