// Rotating the access-token signing keys (issue 29): `keys rotate` (main.ts), the operator's internal API
// (routes/internal-signing-keys.ts) and the automatic rotation of the background tick (background.ts). A rotation
// makes next current and current previous; a previous key verifies until no token it signed can still be valid,
// then it is retired and its seed erased.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as records from '../repo/signing-keys';

/** How often every instance reads the records again and runs `maintainSigningKeys` (background.ts). */
export const SIGNING_KEY_TICK_MS = 30_000;

/** Only the internal project's admins manage the service's keys (EXPECTED_INTERNAL_PROJECT elsewhere). */
function requireInternalProject(projectId: string): void {
  if (projectId !== 'internal') throw new KnownErrors.ExpectedInternalProject();
}

/** Every record, retired ones included, newest first. */
export async function listSigningKeys(services: Services, input: { projectId: string }): Promise<records.SigningKeyRecord[]> {
  requireInternalProject(input.projectId);
  return records.listAll(services.db);
}

/** One rotation requested by the internal project's admin; the records afterwards. */
export async function rotateSigningKeysAsAdmin(services: Services, input: { projectId: string }): Promise<records.SigningKeyRecord[]> {
  requireInternalProject(input.projectId);
  await rotateSigningKeys(services);
  return records.listAll(services.db);
}

/**
 * Rotates once from the current key this instance knows. Requests that see the same current key at once resolve as
 * one rotation (repo/signing-keys.ts: `rotate` changes nothing when the current key is no longer the one expected).
 * Returns the id of the current record afterwards.
 */
export async function rotateSigningKeys(services: Services): Promise<{ currentId: string; rotated: boolean }> {
  const { keys, db } = services;
  const expected = keys.currentId();
  if (!expected) throw new Error('Signing keys: no current key record');
  const rotated = await records.rotate(db, expected);
  if (rotated) await keys.changed();
  else await keys.reload();
  return { currentId: keys.currentId()!, rotated };
}

/**
 * The periodic pass of every instance: previous keys whose last token has expired are retired, and the current key
 * is rotated once it has signed for the configured period. The margin beyond the token lifetime covers an instance
 * that missed the rotation's notification and signed with the old key until its next tick.
 */
export async function maintainSigningKeys(services: Services, at: Date = new Date()): Promise<{ retired: string[]; rotated: boolean }> {
  const { keys, db, config } = services;
  await keys.reload();
  const retireBefore = new Date(at.getTime() - config.accessTokenLifetimeSeconds * 1000 - 2 * SIGNING_KEY_TICK_MS);
  // Written only when a previous key is due, not at every tick of every instance.
  const due = keys.liveRecords().some((r) => r.state === 'previous' && r.deactivatedAt && r.deactivatedAt < retireBefore);
  const retired = due ? await records.retirePreviousBefore(db, retireBefore) : [];
  let rotated = false;
  const current = keys.liveRecords().find((r) => r.state === 'current');
  const periodMs = config.signingKeyRotationDays * 86_400_000;
  if (periodMs > 0 && current?.activatedAt && at.getTime() - current.activatedAt.getTime() >= periodMs) {
    rotated = await records.rotate(db, current.id);
  }
  if (retired.length > 0 || rotated) await keys.changed();
  return { retired, rotated };
}
