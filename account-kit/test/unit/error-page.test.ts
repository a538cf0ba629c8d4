// The error page's reading of its query (client-library §5.2, §6.5).
import { describe, expect, test } from 'bun:test';
import { readErrorPage } from '../../src/lib/error-page';

const q = (o: Record<string, string>) => '?' + new URLSearchParams(o);

describe('readErrorPage', () => {
  test('errorCode and message are both required', () => {
    expect(readErrorPage('')).toEqual({ kind: 'unknown' });
    expect(readErrorPage(q({ errorCode: 'X' }))).toEqual({ kind: 'unknown' });
    expect(readErrorPage(q({ message: 'm' }))).toEqual({ kind: 'unknown' });
  });

  test('details must be JSON when present', () => {
    expect(readErrorPage(q({ errorCode: 'X', message: 'm', details: '{bad' }))).toEqual({ kind: 'unknown' });
    expect(readErrorPage(q({ errorCode: 'X', message: 'm', details: '{"a":1}' }))).toEqual({ kind: 'generic', code: 'X', message: 'm' });
  });

  test('an empty message is still a message', () => {
    expect(readErrorPage(q({ errorCode: 'X', message: '' }))).toEqual({ kind: 'generic', code: 'X', message: '' });
  });

  test('the special cards', () => {
    expect(readErrorPage(q({ errorCode: 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER', message: 'm' })))
      .toEqual({ kind: 'connect-failed', code: 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER', alreadyConnected: false });
    expect(readErrorPage(q({ errorCode: 'USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION', message: 'm' })))
      .toEqual({ kind: 'connect-failed', code: 'USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION', alreadyConnected: true });
    expect(readErrorPage(q({ errorCode: 'OAUTH_PROVIDER_ACCESS_DENIED', message: 'm', details: '{}' }))).toEqual({ kind: 'access-denied' });
  });
});
