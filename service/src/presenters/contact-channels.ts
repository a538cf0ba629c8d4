// A contact channel as the API shows it (protocol-resources §9.1).
import type { ContactChannel } from '@gatehouse/shared/schemas/contact-channels';
import type { ChannelRow } from '../repo/contact-channels';

export function contactChannelView(row: ChannelRow): ContactChannel {
  return {
    user_id: row.userId, id: row.id, value: row.value, type: 'email',
    used_for_auth: row.usedForAuth, is_verified: row.isVerified, is_primary: row.isPrimary,
  };
}
