import { describe, expect, test } from 'bun:test';
import { expectKnownError, sharedService } from './support/service';
import { internalClient, newProject } from './support/projects';

describe('anonymous sign-up', () => {
  test('the internal project creates a signed-in anonymous user', async () => {
    const svc = await sharedService();
    const api = internalClient(svc);
    const res = await api.post('/auth/anonymous/sign-up');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'refresh_token', 'user_id']);
    const me = await api.get('/users/me', { accessToken: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: res.body.user_id, display_name: 'Anonymous user', primary_email: null, has_password: false });
    const again = await api.post('/auth/anonymous/sign-up', {});
    expect(again.body.user_id).not.toBe(res.body.user_id);
  });

  test('other projects answer ANONYMOUS_ACCOUNTS_NOT_ENABLED', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    for (const api of [p.client, p.server, p.admin]) {
      const res = await api.post('/auth/anonymous/sign-up');
      expectKnownError(res, 'ANONYMOUS_ACCOUNTS_NOT_ENABLED', 400);
      expect(res.body.error).toBe('Anonymous accounts are not enabled for this project.');
    }
  });
});
