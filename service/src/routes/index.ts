// Every API route, one resource per module. Add a resource by importing its array here.
import type { RouteDef } from '../http/route';
import { rootRoutes } from './root';
import { userRoutes } from './users';
import { passwordRoutes } from './auth-password';
import { sessionRoutes } from './sessions';
import { tokenRoutes } from './oauth-token';
import { projectRoutes } from './projects';
import { internalProjectRoutes } from './internal-projects';
import { internalApiKeyRoutes } from './internal-api-keys';

export const allRoutes: RouteDef[] = [
  ...rootRoutes,
  ...userRoutes,
  ...passwordRoutes,
  ...sessionRoutes,
  ...tokenRoutes,
  ...projectRoutes,
  ...internalProjectRoutes,
  ...internalApiKeyRoutes,
];
