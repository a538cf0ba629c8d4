// SCIM's changes in the project's audit log (the team's "provisioning log", issue 28): the team's identity provider
// is the actor (its token's kind), the user concerned the subject; written with the audit trail's queue.
import type { AuditEvent } from '@gatehouse/shared/schemas/audit-log';
import type { Services } from '../services';
import { userPlaneEntry } from '../observability/audit-trail';
import type { ScimCaller } from './tokens';

export function logProvisioning(services: Services, caller: ScimCaller, event: AuditEvent, o: { userId?: string | null; target?: string | null; details?: Record<string, unknown> } = {}): void {
  services.auditTrail.add([userPlaneEntry(caller.project.id, {
    event, actorKind: 'scim_token', subjectUserId: o.userId ?? null, target: o.target ?? o.userId ?? null,
    details: { team_id: caller.teamId, scim_token_id: caller.tokenId, ...o.details },
  })]);
}
