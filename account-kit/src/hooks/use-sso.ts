import { useEffect, useState } from 'react';
import { useGatehouseApp } from '../context';

/**
 * Whether the project offers sign-in through a team's SSO (`GET /auth/sso/status`): null while it is asked, then
 * true or false. The sign-in page shows without waiting for it; "Continue with SSO" appears when it is true. A failed
 * read counts as false (the other methods still work).
 */
export function useSsoEnabled(): boolean | null {
  const app = useGatehouseApp();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    app.isSsoEnabled().then((e) => { if (live) setEnabled(e); }, () => { if (live) setEnabled(false); });
    return () => { live = false; };
  }, [app]);
  return enabled;
}
