// GET /internal/metrics (admin; protocol-resources §12.4).
import { Metrics } from '@gatehouse/shared/schemas/metrics';
import { route } from '../http/route';
import * as metrics from '../repo/metrics';
import * as users from '../repo/users';
import { serverUserView } from '../presenters/users';

export const internalMetricsRoutes = [
  route({
    method: 'GET', path: '/internal/metrics', summary: 'User metrics of the project (totals, 31-day series, methods, recent users, countries)', tags: ['Metrics'],
    access: ['admin'], response: Metrics,
    async handler({ auth, services }) {
      const db = services.db;
      const id = auth.project.id;
      const view = (u: users.UserRow) => serverUserView(u, services.activity.pendingForUser(u.id));
      const [total, daily, dailyActive, methods, registered, active, byCountry] = await Promise.all([
        metrics.totalUsers(db, id), metrics.dailySignUps(db, id), metrics.dailyActiveUsers(db, id), metrics.loginMethods(db, id),
        metrics.recentUsers(db, id, 'registered'), metrics.recentUsers(db, id, 'active'), metrics.usersByCountry(db, id),
      ]);
      return {
        total_users: total,
        daily_users: daily,
        daily_active_users: dailyActive,
        login_methods: methods,
        recently_registered: registered.map(view),
        recently_active: active.map(view),
        users_by_country: byCountry,
      };
    },
  }),
];
