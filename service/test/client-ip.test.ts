// The client IP behind proxies (http/client-ip.ts): only the operator's own proxies' x-forwarded-for entries count.
import { describe, expect, test } from 'bun:test';
import { clientIp } from '../src/http/client-ip';

const request = (socketIp: string, forwardedFor?: string) =>
  ({ socketIp, headers: new Headers(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) });

const args = (r: ReturnType<typeof request>) => [r.socketIp, r.headers] as const;

describe('clientIp', () => {
  test('without trust the socket address is the client, whatever the headers say', () => {
    expect(clientIp(...args(request('192.0.2.10', '198.51.100.1')), false)).toBe('192.0.2.10');
  });

  test('with a hop count, the address the last trusted proxy saw (entries further left are the client\'s to write)', () => {
    const r = request('10.0.0.2', '203.0.113.99, 198.51.100.7, 10.0.0.1');
    expect(clientIp(...args(r), 1)).toBe('10.0.0.1');
    expect(clientIp(...args(r), 2)).toBe('198.51.100.7');
    expect(clientIp(...args(r), 3)).toBe('203.0.113.99');
    // More hops than entries: the leftmost entry.
    expect(clientIp(...args(r), 10)).toBe('203.0.113.99');
    expect(clientIp(...args(request('10.0.0.2')), 1)).toBe('10.0.0.2');
  });

  test('with proxy addresses, entries are walked back while they come from a listed proxy', () => {
    const r = request('127.0.0.1', '203.0.113.99, 198.51.100.7, 10.1.2.3');
    expect(clientIp(...args(r), ['loopback', '10.0.0.0/8'])).toBe('198.51.100.7');
    // A peer that is not a listed proxy is the client itself.
    expect(clientIp(...args(request('192.0.2.50', '203.0.113.99')), ['loopback'])).toBe('192.0.2.50');
  });
});
