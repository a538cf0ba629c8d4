// Subcommands of the service's entry point (main.ts): `serve` (the default) and `keys rotate`. A subcommand other than
// `serve` opens the database as a start does (migrations included), does its work and exits.
import type { Config } from './config';
import type { Database } from './db';
import { createServices } from './services';
import { rotateSigningKeys } from './tokens/signing-key-rotation';

export const COMMANDS = ['serve', 'keys rotate'] as const;
export type Command = (typeof COMMANDS)[number];

/** The command named by the arguments after the script; null when unknown. */
export function parseCommand(args: string[]): Command | null {
  const named = args.join(' ').trim() || 'serve';
  return (COMMANDS as readonly string[]).includes(named) ? (named as Command) : null;
}

/**
 * `keys rotate`: next becomes current, current previous. On PostgreSQL the running instances learn of it at once
 * (NOTIFY); the embedded database is opened by one process at a time, so there the service must be stopped first.
 */
export async function rotateKeysCommand(config: Config, database: Database): Promise<void> {
  const services = await createServices(config, database);
  try {
    const before = services.keys.currentId();
    const { currentId, rotated } = await rotateSigningKeys(services);
    console.log(rotated
      ? `Signing keys rotated. Current key: ${currentId} (each project's kid is "${currentId}.<fingerprint>"); ${before} is previous and verifies the tokens it signed until they expire.`
      : `Another rotation came first. Current key: ${currentId}.`);
  } finally {
    for (const stop of services.onStop) await stop();
  }
}
