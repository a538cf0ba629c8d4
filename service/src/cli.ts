// The commands of the executable (`dist/gatehouse`, built by scripts/build-binary.mjs; also `bun service/src/cli.ts`):
// `serve` (the default) and the commands main.ts runs itself go to main.ts; `migrate` and `version` are answered here.
// First: in the bundle, @peculiar/x509's tsyringe (under @simplewebauthn/server) would otherwise run before the
// `import 'reflect-metadata'` that precedes it in @simplewebauthn's modules (the bundler places the ES modules a module
// imports before the CommonJS ones), and stop the start with "tsyringe requires a reflect polyfill".
import 'reflect-metadata';
import { loadConfig, redactUrl } from './config';
import { openDatabase } from './db';
import pkg from '../../package.json';

/** The commit the binary was built from: set by scripts/build-binary.mjs (`--define`), absent when run from source. */
declare const GATEHOUSE_BUILD_COMMIT: string | undefined;

const USAGE = `Usage: gatehouse [command]
  serve      start the service (the default): migrations, then the API, console and account pages
  migrate    apply the database migrations and exit (DATABASE_URL, or the embedded database in GATEHOUSE_DATA_DIR)
  keys ...   signing key commands (main.ts)
  version    print the version and the commit it was built from`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

export function versionLine(): string {
  const commit = typeof GATEHOUSE_BUILD_COMMIT === 'string' && GATEHOUSE_BUILD_COMMIT ? GATEHOUSE_BUILD_COMMIT : 'unknown';
  return `gatehouse ${pkg.version} (commit ${commit})`;
}

async function migrate(): Promise<void> {
  const config = (() => {
    try { return loadConfig(); } catch (err) { return fail(`Gatehouse cannot migrate: ${err instanceof Error ? err.message : String(err)}`); }
  })();
  const where = config.databaseUrl ? `PostgreSQL at ${redactUrl(config.databaseUrl)}` : `PGlite in ${config.dataDir}`;
  // Opening the database applies the migrations that are not applied yet (db/index.ts), on both drivers.
  const database = await openDatabase({
    databaseUrl: config.databaseUrl, dataDir: config.dataDir, connectTimeoutSeconds: config.dbConnectTimeoutSeconds,
  }).catch((err) => fail(`Gatehouse cannot migrate ${where}: ${err instanceof Error ? err.message : String(err)}`));
  await database.close();
  console.log(`Migrations applied (${where}).`);
}

const args = process.argv.slice(2);
switch (args[0]) {
  case 'version': case '--version': case '-v':
    console.log(versionLine());
    break;
  case 'migrate':
    await migrate();
    process.exit(0);
    break;
  case 'help': case '--help': case '-h':
    console.log(USAGE);
    break;
  case undefined: case 'serve': case 'keys':
    await import('./main');
    break;
  default:
    console.error(`Unknown command "${args.join(' ')}".\n${USAGE}`);
    process.exit(2);
}
