// A project's owner as the admin API shows it.
import type { ProjectOwner } from '@gatehouse/shared/schemas/project-owners';
import type { OwnerRow } from '../repo/project-owners';

export function projectOwnerView(row: OwnerRow): ProjectOwner {
  return { user_id: row.id, display_name: row.display_name, primary_email: row.primary_email, signed_up_at_millis: new Date(row.created_at).getTime() };
}
