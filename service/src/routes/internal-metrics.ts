// GET /internal/metrics (admin; protocol-resources §12.4; projects/metrics.ts).
import { Metrics } from '@gatehouse/shared/schemas/metrics';
import { route } from '../http/route';
import type { UserRow } from '../repo/users';
import { projectMetrics } from '../projects/metrics';
import { serverUserView } from '../presenters/users';

export const internalMetricsRoutes = [
  route({
    method: 'GET', path: '/internal/metrics', summary: 'User metrics of the project (totals, 31-day series, methods, recent users, countries)', tags: ['Metrics'],
    access: ['admin'], response: Metrics,
    async handler({ auth, services }) {
      const m = await projectMetrics(services, { projectId: auth.project.id });
      const view = (u: UserRow) => serverUserView(u, services.activity.pendingForUser(u.id));
      return {
        total_users: m.totalUsers,
        daily_users: m.dailySignUps,
        daily_active_users: m.dailyActiveUsers,
        login_methods: m.loginMethods,
        recently_registered: m.recentlyRegistered.map(view),
        recently_active: m.recentlyActive.map(view),
        users_by_country: m.usersByCountry,
      };
    },
  }),
];
