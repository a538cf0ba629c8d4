// The permission gating table of a team's settings page (client-library §7.7, seed §6), row by row.
import { describe, expect, test } from 'bun:test';
import { teamSections } from '../../src/lib/team-permissions';

describe('team page gating', () => {
  test('no permission: only the team user name and Leave Team', () => {
    expect(teamSections([])).toEqual({
      teamUserName: true, leaveTeam: true, profileImage: false, displayName: false, members: false, readMembers: false,
      invite: false, invitations: false, revokeInvitation: false, removeMembers: false, apiKeys: false,
    });
  });
  test('$update_team: image and display name', () => {
    const s = teamSections(['$update_team']);
    expect([s.profileImage, s.displayName, s.members, s.invite]).toEqual([true, true, false, false]);
  });
  test('members list with $read_members or $invite_members', () => {
    expect(teamSections(['$read_members']).members).toBe(true);
    expect(teamSections(['$invite_members']).members).toBe(true);
    expect(teamSections(['$remove_members']).members).toBe(false);
    // The table itself only with $read_members: with $invite_members alone the section says why it has none.
    expect(teamSections(['$invite_members']).readMembers).toBe(false);
    expect(teamSections(['$read_members']).readMembers).toBe(true);
  });
  test('invite form with $invite_members; the invitations table needs $read_members too', () => {
    expect(teamSections(['$invite_members'])).toMatchObject({ invite: true, invitations: false });
    expect(teamSections(['$read_members'])).toMatchObject({ invite: false, invitations: false });
    expect(teamSections(['$invite_members', '$read_members'])).toMatchObject({ invite: true, invitations: true, revokeInvitation: false });
  });
  test('revoking an invitation needs $remove_members (and the table)', () => {
    expect(teamSections(['$invite_members', '$read_members', '$remove_members']).revokeInvitation).toBe(true);
    expect(teamSections(['$remove_members']).revokeInvitation).toBe(false);
  });
  test('removing a member needs $remove_members and the members list ($read_members)', () => {
    expect(teamSections(['$read_members', '$remove_members']).removeMembers).toBe(true);
    expect(teamSections(['$remove_members']).removeMembers).toBe(false);
    expect(teamSections(['$read_members']).removeMembers).toBe(false);
  });
  test('team API keys with $manage_api_keys, unless the project does not allow team keys', () => {
    expect(teamSections(['$manage_api_keys']).apiKeys).toBe(true);
    expect(teamSections(['$manage_api_keys'], { allowTeamApiKeys: false }).apiKeys).toBe(false);
    expect(teamSections(['$update_team']).apiKeys).toBe(false);
  });
});
