import { useMemo } from 'react';
import { cachedReadsSymbol, type Project } from '@gatehouse/shared/client';
import { useGatehouseApp } from '../context';
import { useCachedRead } from '@gatehouse/shared/react';

/** The project of the app (`GET /projects/current`): its display name and the config the screens follow. */
export function useProject(): Project {
  const app = useGatehouseApp();
  const read = useMemo(() => app[cachedReadsSymbol].project(), [app]);
  return useCachedRead(read);
}
