// API keys as the API shows them: a user's or team's key (protocol-resources §11.2), and a project's key sets
// (/internal/api-keys). A secret is shown in full only in the answer that created it, by its last four afterwards.
import type { ApiKeySet } from '@gatehouse/shared/schemas/api-keys';
import type { KeyRow } from '../repo/user-api-keys';
import type { KeySetRow } from '../repo/project-keys';

/** Wire object; `value` is the full secret right after creation, `{last_four}` afterwards. */
type KeyView<V> = {
  created_at_millis: number; description: string; expires_at_millis?: number; id: string; is_public: boolean; manually_revoked_at_millis?: number;
  value: V;
} & ({ type: 'user'; user_id: string } | { type: 'team'; team_id: string });

/** The wire form of a key: its last four characters, or the full secret in the creation response. */
export function apiKeyView(row: KeyRow): KeyView<{ last_four: string }>;
export function apiKeyView(row: KeyRow, fullValue: string): KeyView<string>;
export function apiKeyView(row: KeyRow, fullValue?: string): KeyView<string | { last_four: string }> {
  return {
    created_at_millis: row.createdAt.getTime(),
    description: row.description,
    ...(row.expiresAt ? { expires_at_millis: row.expiresAt.getTime() } : {}),
    id: row.id,
    is_public: row.isPublic,
    ...(row.manuallyRevokedAt ? { manually_revoked_at_millis: row.manuallyRevokedAt.getTime() } : {}),
    ...(row.userId ? { type: 'user' as const, user_id: row.userId } : { type: 'team' as const, team_id: row.teamId! }),
    value: fullValue ?? { last_four: row.lastFour },
  };
}

export function keySetView(row: KeySetRow): ApiKeySet {
  const lastFour = (v: string | null) => (v ? { last_four: v } : undefined);
  return {
    id: row.id,
    description: row.description,
    expires_at_millis: row.expiresAt.getTime(),
    ...(row.manuallyRevokedAt ? { manually_revoked_at_millis: row.manuallyRevokedAt.getTime() } : {}),
    created_at_millis: row.createdAt.getTime(),
    ...(row.publishableClientKeyLastFour ? { publishable_client_key: lastFour(row.publishableClientKeyLastFour) } : {}),
    ...(row.secretServerKeyLastFour ? { secret_server_key: lastFour(row.secretServerKeyLastFour) } : {}),
    ...(row.superSecretAdminKeyLastFour ? { super_secret_admin_key: lastFour(row.superSecretAdminKeyLastFour) } : {}),
  };
}
