// A project's user metrics (GET /internal/metrics, protocol-resources §12.4): totals, the 31-day series, sign-in
// methods, the users registered and active most recently, and users by country, read together.
import type { Services } from '../services';
import * as metrics from '../repo/metrics';

export async function projectMetrics(services: Services, input: { projectId: string }) {
  const db = services.db;
  const id = input.projectId;
  const [totalUsers, dailySignUps, dailyActiveUsers, loginMethods, recentlyRegistered, recentlyActive, usersByCountry] = await Promise.all([
    metrics.totalUsers(db, id), metrics.dailySignUps(db, id), metrics.dailyActiveUsers(db, id), metrics.loginMethods(db, id),
    metrics.recentUsers(db, id, 'registered'), metrics.recentUsers(db, id, 'active'), metrics.usersByCountry(db, id),
  ]);
  return { totalUsers, dailySignUps, dailyActiveUsers, loginMethods, recentlyRegistered, recentlyActive, usersByCountry };
}
