// The project a screen works on: its admin app (owner session or admin key) and where its service is.
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { AdminProject, GatehouseAdminApp } from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';
import type { SavedConnection } from '../../shared/bridge';

export interface ProjectContextValue {
  app: GatehouseAdminApp;
  connection: SavedConnection;
  projectId: string;
}

export const ProjectContext = createContext<ProjectContextValue | null>(null);

export function useProjectContext(): ProjectContextValue {
  const v = useContext(ProjectContext);
  if (!v) throw new Error('useProjectContext outside a project');
  return v;
}

/** The project as the admin API shows it (GET /projects/current), suspending on the first load. */
export function useAdminProject(): AdminProject {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.project(), [app]);
  return useCachedRead(read);
}

/**
 * The project's name once the project has loaded, null before (or when it cannot be read): for the header, which must
 * not suspend or fail the whole frame while the screen below shows its own skeleton or error.
 */
export function useAdminProjectName(): string | null {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.project(), [app]);
  const snapshot = useSyncExternalStore(read.subscribe, read.peek, read.peek);
  useEffect(() => {
    read.read().catch(() => { /* the screen's own read shows the error */ });
  }, [read]);
  return snapshot.status === 'ok' ? snapshot.value.displayName : null;
}
