// Whether the desktop app may store a secret (issue 30 §7): under a weak storage (Linux's `basic_text`, a fixed key)
// the owner is asked first, once per session; the answer "this session only" keeps the secret in the main process's
// memory. The question itself is a dialog of the console (components/weak-storage-dialog.tsx), reached through
// `askWeakStorageConsent`, so this module stays free of React.
import type { SecretStorageStatus } from '../../shared/bridge';

export type StorageStep = 'store' | 'ask';

/** What to do before storing a secret: ask the owner only for a weak storage they have not agreed to (nor declined). */
export function storageStep(status: SecretStorageStatus, declinedThisSession: boolean): StorageStep {
  return status.kind === 'weak' && !status.weakStorageAllowed && !declinedThisSession ? 'ask' : 'store';
}

type Prompt = (backend: string) => Promise<boolean>;
let prompt: Prompt | null = null;

/** The console's dialog registers itself here (and unregisters with the returned function). */
export function registerWeakStoragePrompt(p: Prompt): () => void {
  prompt = p;
  return () => { if (prompt === p) prompt = null; };
}

/** Asks the owner; without a dialog to ask with, the answer is no (nothing is written without consent). */
export function askWeakStorageConsent(backend: string): Promise<boolean> {
  return prompt ? prompt(backend) : Promise.resolve(false);
}
