// Reads the error page's query (client-library §5.2, §6.5): errorCode, message and optional JSON details.
export type ErrorPageContent =
  | { kind: 'unknown' }
  | { kind: 'connect-failed'; code: string; alreadyConnected: boolean }
  | { kind: 'access-denied' }
  | { kind: 'generic'; code: string; message: string };

export function readErrorPage(search: string): ErrorPageContent {
  const q = new URLSearchParams(search);
  const code = q.get('errorCode');
  const message = q.get('message');
  const details = q.get('details');
  if (!code || message === null) return { kind: 'unknown' };
  if (details !== null) {
    try { JSON.parse(details); } catch { return { kind: 'unknown' }; }
  }
  if (code === 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER') return { kind: 'connect-failed', code, alreadyConnected: false };
  if (code === 'USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION') return { kind: 'connect-failed', code, alreadyConnected: true };
  if (code === 'OAUTH_PROVIDER_ACCESS_DENIED') return { kind: 'access-denied' };
  return { kind: 'generic', code, message };
}
