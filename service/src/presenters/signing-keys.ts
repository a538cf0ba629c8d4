// The service's signing key records as /internal/signing-keys shows them: never a seed or a private key.
import type { SigningKey } from '@gatehouse/shared/schemas/signing-keys';
import type { SigningKeyRecord } from '../repo/signing-keys';

export function signingKeyView(r: SigningKeyRecord): SigningKey {
  return {
    id: r.id, state: r.state, algorithm: r.algorithm, created_at_millis: r.createdAt.getTime(),
    activated_at_millis: r.activatedAt?.getTime() ?? null,
    deactivated_at_millis: r.deactivatedAt?.getTime() ?? null,
    retired_at_millis: r.retiredAt?.getTime() ?? null,
  };
}
