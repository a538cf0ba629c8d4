import { useCallback, useSyncExternalStore } from 'react';
import { parseRoute, routeHash, type Route } from '../lib/routes';

const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};
const currentHash = () => window.location.hash;

export function navigate(route: Route): void {
  window.location.hash = routeHash(route);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, currentHash, currentHash);
  return parseRoute(hash);
}

export function useNavigate() {
  return useCallback((route: Route) => navigate(route), []);
}
