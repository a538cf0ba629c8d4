// The sentence account settings show for an organization that manages the account (issue 28): through which
// identity provider the person signs in, and whether it also provisions the account (SCIM). Pure.
import type { ManagingOrganization } from '@gatehouse/shared/client';
import type { MessageKey } from '../messages';

export function managedByText(m: ManagingOrganization): { key: MessageKey; values: Record<string, string> } {
  const values = { team: m.teamDisplayName, idp: m.connectionDisplayName ?? '' };
  if (m.connectionDisplayName && m.provisionedByScim) return { key: 'settings.profile.managedBySsoAndScim', values };
  if (m.connectionDisplayName) return { key: 'settings.profile.managedBySso', values };
  return { key: 'settings.profile.managedByScim', values };
}
