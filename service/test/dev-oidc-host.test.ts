// The development OpenID provider listens where the service does (issue 14 §6): with HOST=127.0.0.1 it is not
// reachable on other addresses. On Linux a socket bound to 127.0.0.1 refuses connections to 127.0.0.2, while one
// bound to every interface accepts them, so the test needs no second network interface.
import { connect } from 'node:net';
import { expect, setDefaultTimeout, test } from 'bun:test';
import { startService } from './support/service';

setDefaultTimeout(60_000);

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

test('with HOST=127.0.0.1 the development OpenID provider listens on 127.0.0.1 only, like the service', async () => {
  const svc = await startService({ env: { HOST: '127.0.0.1', GATEHOUSE_DEV_OIDC: 'true', GATEHOUSE_OAUTH_ISSUER_OVERRIDES: '' } });
  try {
    const deadline = Date.now() + 20_000;
    let m: RegExpExecArray | null = null;
    while (!(m = /Development OpenID provider on (http:\/\/[^ ]+)/.exec(svc.output())) && Date.now() < deadline) await Bun.sleep(50);
    expect(m).not.toBeNull();
    const issuer = new URL(m![1]!);
    expect(issuer.hostname).toBe('127.0.0.1');
    const port = Number(issuer.port);
    expect((await fetch(`${issuer.origin}/.well-known/openid-configuration`)).status).toBe(200);
    expect(await reachable('127.0.0.1', port)).toBe(true);
    expect(await reachable('127.0.0.2', port)).toBe(false);
    // The service itself, for comparison.
    const servicePort = Number(new URL(svc.url).port);
    expect(await reachable('127.0.0.2', servicePort)).toBe(false);
  } finally {
    await svc.stop();
  }
});
