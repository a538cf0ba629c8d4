// Each provider's user-info mapper against response shapes from the providers' API documentation.
import { describe, expect, test } from 'bun:test';
import { PROVIDERS, type ProviderId, type ProviderUserInfo, type UserInfoSources } from '../src/oauth/providers.ts';

const map = (id: ProviderId, sources: Partial<UserInfoSources>): ProviderUserInfo =>
  PROVIDERS[id].mapUserInfo({ responses: {}, ...sources });

describe('user-info mappers', () => {
  test('google (OIDC userinfo)', () => {
    const user = { sub: '1057', name: 'Ann Lee', email: 'ann@gmail.com', email_verified: true, picture: 'https://lh3.googleusercontent.com/a/x' };
    expect(map('google', { responses: { user } })).toEqual({
      accountId: '1057',
      displayName: 'Ann Lee',
      email: 'ann@gmail.com',
      emailVerified: true,
      profileImageUrl: 'https://lh3.googleusercontent.com/a/x',
    });
  });

  test('github: /user + the primary address of /user/emails', () => {
    const user = { id: 583231, login: 'octocat', name: 'The Octocat', email: null, avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4' };
    const emails = [
      { email: 'old@octo.test', primary: false, verified: true, visibility: null },
      { email: 'octocat@github.com', primary: true, verified: true, visibility: 'public' },
    ];
    expect(map('github', { responses: { user, emails } })).toEqual({
      accountId: '583231',
      displayName: 'The Octocat',
      email: 'octocat@github.com',
      emailVerified: true,
      profileImageUrl: 'https://avatars.githubusercontent.com/u/583231?v=4',
    });
    const unverified = [{ email: 'new@octo.test', primary: true, verified: false }];
    expect(map('github', { responses: { user: { ...user, name: null }, emails: unverified } })).toMatchObject({
      displayName: 'octocat',
      email: 'new@octo.test',
      emailVerified: false,
    });
  });

  test('microsoft: Graph /me, never verified, no public photo', () => {
    const user = { id: '87d349ed-44d7-43e1-9a83-5f2406dee5bd', displayName: 'Megan Bowen', mail: null, userPrincipalName: 'MeganB@contoso.com' };
    expect(map('microsoft', { responses: { user } })).toEqual({
      accountId: '87d349ed-44d7-43e1-9a83-5f2406dee5bd',
      displayName: 'Megan Bowen',
      email: 'MeganB@contoso.com',
      emailVerified: false,
      profileImageUrl: null,
    });
    expect(map('microsoft', { responses: { user: { ...user, mail: 'megan@contoso.com' } } }).email).toBe('megan@contoso.com');
  });

  test('spotify: /v1/me', () => {
    const user = { id: 'wizzler', display_name: 'JM Wizzler', email: 'email@example.com', images: [{ url: 'https://i.scdn.co/image/ab67', height: 300, width: 300 }] };
    expect(map('spotify', { responses: { user } })).toEqual({
      accountId: 'wizzler',
      displayName: 'JM Wizzler',
      email: 'email@example.com',
      emailVerified: false,
      profileImageUrl: 'https://i.scdn.co/image/ab67',
    });
    expect(map('spotify', { responses: { user: { id: 'x', images: [] } } }).profileImageUrl).toBeNull();
  });

  test('facebook: Graph /me with picture', () => {
    const user = { id: '10158', name: 'Fay Book', email: 'fay@fb.test', picture: { data: { url: 'https://platform-lookaside.fbsbx.com/p', is_silhouette: false } } };
    expect(map('facebook', { responses: { user } })).toEqual({
      accountId: '10158',
      displayName: 'Fay Book',
      email: 'fay@fb.test',
      emailVerified: false,
      profileImageUrl: 'https://platform-lookaside.fbsbx.com/p',
    });
  });

  test('discord: /users/@me with avatar hash', () => {
    const user = { id: '80351110224678912', username: 'nelly', global_name: 'Nelly', avatar: '8342729096ea3675442027381ff50dfe', verified: true, email: 'nelly@discord.com' };
    expect(map('discord', { responses: { user } })).toEqual({
      accountId: '80351110224678912',
      displayName: 'Nelly',
      email: 'nelly@discord.com',
      emailVerified: true,
      profileImageUrl: 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png',
    });
    expect(map('discord', { responses: { user: { ...user, global_name: null, avatar: null, verified: false } } })).toMatchObject({
      displayName: 'nelly',
      emailVerified: false,
      profileImageUrl: null,
    });
  });

  test('gitlab: /api/v4/user', () => {
    const user = { id: 1, username: 'john_smith', name: 'John Smith', email: 'john@example.com', avatar_url: 'https://gitlab.com/uploads/1.jpg', confirmed_at: '2012-05-23T09:05:22Z' };
    expect(map('gitlab', { responses: { user } })).toEqual({
      accountId: '1',
      displayName: 'John Smith',
      email: 'john@example.com',
      emailVerified: true,
      profileImageUrl: 'https://gitlab.com/uploads/1.jpg',
    });
    expect(map('gitlab', { responses: { user: { ...user, confirmed_at: null } } }).emailVerified).toBe(false);
  });

  test('bitbucket: /2.0/user + /2.0/user/emails', () => {
    const user = { uuid: '{d301aafa-d676-4ee0-88be-962be7417567}', display_name: 'Bee Bucket', username: 'bee', links: { avatar: { href: 'https://avatar.test/bee' } } };
    const emails = { values: [{ email: 'alt@bb.test', is_primary: false, is_confirmed: true }, { email: 'bee@bb.test', is_primary: true, is_confirmed: true }] };
    expect(map('bitbucket', { responses: { user, emails } })).toEqual({
      accountId: '{d301aafa-d676-4ee0-88be-962be7417567}',
      displayName: 'Bee Bucket',
      email: 'bee@bb.test',
      emailVerified: true,
      profileImageUrl: 'https://avatar.test/bee',
    });
  });

  test('linkedin: OIDC userinfo', () => {
    const user = { sub: '782bbtaQ', name: 'John Doe', email: 'doe@email.com', email_verified: true, picture: 'https://media.licdn.com/p' };
    expect(map('linkedin', { responses: { user } })).toEqual({
      accountId: '782bbtaQ',
      displayName: 'John Doe',
      email: 'doe@email.com',
      emailVerified: true,
      profileImageUrl: 'https://media.licdn.com/p',
    });
  });

  test('apple: id_token claims, name from the first callback', () => {
    const idTokenClaims = { sub: '001234.abcd.1234', email: 'x@privaterelay.appleid.com', email_verified: 'true' };
    const callbackParams = new URLSearchParams({ code: 'c', user: JSON.stringify({ name: { firstName: 'Tim', lastName: 'Apple' }, email: 'x@privaterelay.appleid.com' }) });
    expect(map('apple', { idTokenClaims, callbackParams })).toEqual({
      accountId: '001234.abcd.1234',
      displayName: 'Tim Apple',
      email: 'x@privaterelay.appleid.com',
      emailVerified: true,
      profileImageUrl: null,
    });
    expect(map('apple', { idTokenClaims: { ...idTokenClaims, email_verified: false }, callbackParams: new URLSearchParams({ user: '{bad' }) })).toMatchObject({
      displayName: null,
      emailVerified: false,
    });
  });

  test('x: /2/users/me, no email', () => {
    const user = { data: { id: '2244994945', name: 'X Developers', username: 'XDevelopers', profile_image_url: 'https://pbs.twimg.com/p.jpg' } };
    expect(map('x', { responses: { user } })).toEqual({
      accountId: '2244994945',
      displayName: 'X Developers',
      email: null,
      emailVerified: false,
      profileImageUrl: 'https://pbs.twimg.com/p.jpg',
    });
  });

  test('a response without an account id is an error, not an empty id', () => {
    expect(() => map('github', { responses: { user: { login: 'ghost' }, emails: [] } })).toThrow(/no account id/);
    expect(() => map('x', { responses: { user: { errors: [{ title: 'Unauthorized' }] } } })).toThrow(/no account id/);
    expect(() => map('apple', {})).toThrow(/no account id/);
  });
});
