// The saved connections, loaded from the platform and reloaded after changes.
import { useCallback, useEffect, useState } from 'react';
import type { SavedConnection } from '../../shared/bridge';
import type { Platform } from '../platform';

export function useConnections(platform: Platform) {
  const [list, setList] = useState<SavedConnection[] | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const reload = useCallback(async () => {
    try {
      setList(await platform.listConnections());
      setError(null);
    } catch (e) {
      setError(e as Error);
    }
  }, [platform]);
  useEffect(() => void reload(), [reload]);
  return { list, error, reload };
}
