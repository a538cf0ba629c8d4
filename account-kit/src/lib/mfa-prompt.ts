// The bridge between the client library's MFA prompt (a promise) and the TOTP dialog (React state).
type Pending = { attemptCode: string; answer: (code: string | null) => void };

export interface MfaPromptController {
  prompt(info: { attemptCode: string }): Promise<string | null>;
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
    prompt: ({ attemptCode }) =>
      new Promise<string | null>((resolve) => {
        pending?.answer(null);
        asked = true;
        pending = {
          attemptCode,
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
