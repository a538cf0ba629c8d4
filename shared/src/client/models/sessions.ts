// Active sessions (client-library §1.7.8).
import type { SessionJson } from '../wire.ts';

/** The wire shape is the service's response schema (shared/src/schemas/sessions.ts). */
export type ActiveSessionJson = SessionJson;

export type GeoInfo = {
  ip: string;
  countryCode?: string | null;
  regionCode?: string | null;
  cityName?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  tzIdentifier?: string | null;
};

export interface ActiveSession {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly isImpersonation: boolean;
  readonly lastUsedAt: Date | undefined;
  readonly isCurrentSession: boolean;
  readonly geoInfo: GeoInfo | undefined;
  /** The user agent of the browser that signed in (Gatehouse's addition), when the service recorded one. */
  readonly userAgent: string | undefined;
}

export function createActiveSession(json: ActiveSessionJson): ActiveSession {
  return Object.freeze({
    id: json.id,
    userId: json.user_id,
    createdAt: new Date(json.created_at),
    isImpersonation: json.is_impersonation,
    lastUsedAt: json.last_used_at ? new Date(json.last_used_at) : undefined,
    isCurrentSession: json.is_current_session ?? false,
    geoInfo: json.last_used_at_end_user_ip_info,
    userAgent: json.user_agent,
  });
}
