// Helpers for the team and permission tests: teams with members, made through the server API.
import { expect } from 'bun:test';
import type { TestProject } from './projects';
import { signUp } from './projects';

export async function serverCreateTeam(p: TestProject, body: Record<string, unknown> = {}) {
  const res = await p.server.post('/teams', { display_name: 'Team', ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; display_name: string };
}

export async function addMember(p: TestProject, teamId: string, userId: string) {
  const res = await p.server.post(`/team-memberships/${teamId}/${userId}`, {});
  expect(res.status).toBe(201);
}

/** A team created by a fresh user (the creator gets `admin`) plus a plain member (gets `member`). */
export async function teamWithCreatorAndMember(p: TestProject) {
  const creator = await signUp(p);
  const member = await signUp(p);
  const team = await serverCreateTeam(p, { display_name: 'Crew', creator_user_id: creator.userId });
  await addMember(p, team.id, member.userId);
  return { team, creator, member };
}
