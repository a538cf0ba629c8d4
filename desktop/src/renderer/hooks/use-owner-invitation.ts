// The owner invitation a mailed code is for, read by the signed-in invitee (the code stays unused until accepted).
import type { CurrentInternalUser, CurrentUser, OwnerInvitationDetails } from '@gatehouse/shared/client';
import { useLoader, type Loaded } from './use-loader';

export function useOwnerInvitation(user: CurrentUser, code: string): Loaded<OwnerInvitationDetails> {
  // The console signs owners in to the `internal` project, whose users own projects.
  const owner = user as CurrentInternalUser;
  return useLoader(() => owner.getOwnerInvitation(code), [owner, code]);
}
