// The bridge between the client library's MFA prompt (a promise) and the TOTP dialog (React state).
import type { MfaPromptInfo } from '@gatehouse/shared/client';

type Pending = MfaPromptInfo & { answer: (code: string | null) => void };

export interface MfaPromptController {
  prompt(info: MfaPromptInfo): Promise<string | null>;
  subscribe(cb: () => void): () => void;
  current(): Pending | null;
  everAsked(): boolean;
}

export function createMfaPromptController(): MfaPromptController {
  let pending: Pending | null = null;
  let asked = false;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());
  return {
    prompt: ({ attemptCode, verify }) =>
      new Promise<string | null>((resolve) => {
        pending?.answer(null);
        asked = true;
        pending = {
          attemptCode,
          verify,
          answer: (code) => {
            pending = null;
            emit();
            resolve(code);
          },
        };
        emit();
      }),
    subscribe: (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    current: () => pending,
    everAsked: () => asked,
  };
}
