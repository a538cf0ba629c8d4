// The project a screen works on: its admin app (owner session or admin key) and where its service is.
import { createContext, useContext, useMemo } from 'react';
import type { AdminProject, GatehouseAdminApp } from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';
import { useLoadedRead } from './use-loaded-read';
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

/** The project's name once loaded, null before: for the header, which must not suspend the frame (use-loaded-read.ts). */
export function useAdminProjectName(): string | null {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.project(), [app]);
  return useLoadedRead(read)?.displayName ?? null;
}
