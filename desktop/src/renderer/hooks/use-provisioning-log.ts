// A team's provisioning log (its SCIM changes, from the project's audit log filtered to the team), a page at a
// time, with the labels of the users it names.
import type { ServerTeam } from '@gatehouse/shared/client';
import { useAuditLog, useUserLabels, type AuditLogView } from './use-audit-log';
import { provisionedUserIds, provisioningFilter } from '../lib/provisioning-log';

export function useProvisioningLog(team: ServerTeam): AuditLogView & { userLabels: ReadonlyMap<string, string | null> } {
  const log = useAuditLog(provisioningFilter(team.id));
  const userLabels = useUserLabels(provisionedUserIds(log.entries ?? []));
  return { ...log, userLabels };
}
