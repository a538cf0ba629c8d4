// Who may create projects (issue 17 §3, ASVS 4.1.3): the operator's GATEHOUSE_PROJECT_CREATION setting. Creating a
// project mints its secret keys, so on a server open to the internet the operator decides who gets that.
import type { ProjectCreationPolicy } from '../config';

export interface Creator {
  /** How the request reached the internal project: `server` and `admin` are the operator's own keys. */
  accessType: 'client' | 'server' | 'admin';
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
}

export function mayCreateProject(policy: ProjectCreationPolicy, creator: Creator): boolean {
  if (creator.accessType !== 'client') return true;
  if (policy.mode === 'open') return true;
  if (policy.mode === 'none') return false;
  // An unverified address proves nothing: anyone can sign up with an invited address they do not own.
  return creator.primaryEmailVerified && creator.primaryEmail !== null && policy.emails.includes(creator.primaryEmail.toLowerCase());
}
