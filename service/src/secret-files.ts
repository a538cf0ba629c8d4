// Secrets from files (issue 29): container platforms mount secrets as files, so every secret setting may be given as
// NAME_FILE, the path of a file holding its value (one trailing line break dropped). Setting both NAME and NAME_FILE
// is an error naming both; so is a file that cannot be read. Applied by loadConfig (config.ts) before it reads any
// setting: it stays the one reader of the environment.
import { readFileSync } from 'node:fs';

/** The settings that hold a secret (and the shared OAuth providers' client secrets, matched below). */
export const SECRET_SETTINGS = [
  'GATEHOUSE_SERVER_SECRET',
  'GATEHOUSE_SERVER_SECRET_PREVIOUS',
  'DATABASE_URL',
  'SMTP_URL',
  'GATEHOUSE_METRICS_TOKEN',
] as const;

const OAUTH_CLIENT_SECRET = /^GATEHOUSE_OAUTH_[A-Z0-9]+_CLIENT_SECRET$/;

export function isSecretSetting(name: string): boolean {
  return (SECRET_SETTINGS as readonly string[]).includes(name) || OAUTH_CLIENT_SECRET.test(name);
}

export type ReadSecretFile = (path: string) => string;

const readUtf8: ReadSecretFile = (path) => readFileSync(path, 'utf8');

/**
 * The environment with each NAME_FILE of a secret setting read into NAME (NAME_FILE itself removed). Throws an Error
 * whose message names the variables at fault; never the value.
 */
export function withSecretFiles(env: Record<string, string | undefined>, read: ReadSecretFile = readUtf8): Record<string, string | undefined> {
  const out = { ...env };
  for (const [key, path] of Object.entries(env)) {
    if (!key.endsWith('_FILE') || path === undefined) continue;
    const name = key.slice(0, -'_FILE'.length);
    if (!isSecretSetting(name)) continue;
    if (env[name] !== undefined && env[name] !== '') throw new Error(`${name} and ${key} are both set: give the value one way only`);
    if (path.trim() === '') throw new Error(`${key} is empty: expected the path of a file holding ${name}`);
    let value: string;
    try {
      value = read(path);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new Error(`${key}: cannot read ${path}${code ? ` (${code})` : ''}`);
    }
    out[name] = value.replace(/\r?\n$/, '');
    delete out[key];
  }
  return out;
}
