import { describe, expect, test } from 'bun:test';
import { sharedService } from './support/service';
import { newProject, signUp } from './support/projects';

describe('harness', () => {
  test('a project is created and a user signs up and reads itself', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const u = await signUp(p);
    const me = await p.client.get('/users/me', { accessToken: u.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.primary_email).toBe(u.email);
  });
});
