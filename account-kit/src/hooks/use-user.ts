// useUser (client-library §1.4.1, hook column) and the token-change subscription every user hook needs.
import { use, useEffect, useMemo, useState } from 'react';
import { cachedReadsSymbol, type CurrentUser } from '@gatehouse/shared/client';
import { useGatehouseApp } from '../context';
import { useCachedRead } from '@gatehouse/shared/react';

export type UseUserOr = 'return-null' | 'redirect' | 'throw';
export type UseUserOptions = { or?: UseUserOr; includeAnonymous?: boolean };

const never = new Promise<never>(() => {});
const redirecting = new WeakSet<object>();

/** A number that changes whenever the app's tokens change (sign-in/out here or in another tab). */
export function useTokensVersion(): number {
  const app = useGatehouseApp();
  const [version, setVersion] = useState(0);
  useEffect(() => app[cachedReadsSymbol].onTokensChange(() => setVersion((v) => v + 1)), [app]);
  return version;
}

export function useUser<U = CurrentUser>(options: UseUserOptions & { or: 'redirect' | 'throw' }): U;
export function useUser<U = CurrentUser>(options?: UseUserOptions): U | null;
export function useUser<U = CurrentUser>(options: UseUserOptions = {}): U | null {
  const app = useGatehouseApp();
  const version = useTokensVersion();
  const includeAnonymous = !!options.includeAnonymous;
  // A new session after a token change means new cache entries: derive the read again.
  const read = useMemo(() => app[cachedReadsSymbol].currentUser({ includeAnonymous }), [app, version, includeAnonymous]);
  const user = useCachedRead(read) as U | null;
  if (user) return user;
  if (options.or === 'throw') throw new Error("User is not signed in but useUser was called with { or: 'throw' }");
  if (options.or === 'redirect') {
    // As the SDK does: start the redirect once and suspend until the page goes away.
    if (!redirecting.has(app)) {
      redirecting.add(app);
      void app.redirectToSignIn({ replace: true }).finally(() => redirecting.delete(app));
    }
    return use(never);
  }
  return null;
}
