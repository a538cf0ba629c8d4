// /internal/signing-keys: the service's access-token signing keys, listed and rotated by the operator (the internal
// project's admin access; EXPECTED_INTERNAL_PROJECT elsewhere; tokens/signing-key-rotation.ts).
import { SigningKeyList } from '@gatehouse/shared/schemas/signing-keys';
import { route } from '../http/route';
import { listSigningKeys, rotateSigningKeysAsAdmin } from '../tokens/signing-key-rotation';
import { signingKeyView } from '../presenters/signing-keys';

export const internalSigningKeyRoutes = [
  route({
    method: 'GET', path: '/internal/signing-keys', summary: "The service's access-token signing keys (internal project only), newest first", tags: ['Signing keys'],
    access: ['admin'], response: SigningKeyList,
    async handler({ services, auth }) {
      return { items: (await listSigningKeys(services, { projectId: auth.project.id })).map(signingKeyView), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/internal/signing-keys/rotate', summary: 'Rotate the signing keys: next becomes current, current previous (internal project only)', tags: ['Signing keys'],
    access: ['admin'], response: SigningKeyList,
    async handler({ services, auth }) {
      return { items: (await rotateSigningKeysAsAdmin(services, { projectId: auth.project.id })).map(signingKeyView), is_paginated: false as const };
    },
  }),
];
