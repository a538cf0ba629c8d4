// A session as GET /auth/sessions lists it (protocol-auth §2.11).
import type { Session } from '@gatehouse/shared/schemas/sessions';
import type { SessionRow } from '../repo/sessions';

/**
 * `lastUsedAt` and `ipInfo`: the session's last use, the one not yet written included; `currentSessionId`: the
 * caller's own session.
 */
export function sessionView(row: SessionRow, lastUsedAt: Date | null, ipInfo: Session['last_used_at_end_user_ip_info'] | null, currentSessionId: string | undefined): Session {
  return {
    id: row.id, user_id: row.userId, created_at: row.createdAt.getTime(), is_impersonation: row.isImpersonation,
    ...(lastUsedAt ? { last_used_at: lastUsedAt.getTime() } : {}),
    is_current_session: row.id === currentSessionId,
    ...(ipInfo ? { last_used_at_end_user_ip_info: ipInfo } : {}),
    ...(row.userAgent ? { user_agent: row.userAgent } : {}),
  };
}
