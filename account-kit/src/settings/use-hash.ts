// The URL hash as React state, polled every 10 ms (client-library §7.1): links, back/forward and a host
// router's navigation all show up, whether or not they fire `hashchange`.
import { useEffect, useState } from 'react';
import { HASH_POLL_MS } from '../lib/settings-items';

export function useHash(): string {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const timer = setInterval(() => setHash(window.location.hash), HASH_POLL_MS);
    return () => clearInterval(timer);
  }, []);
  return hash;
}

/** Selects an item: a plain hash change, so the browser's history and back button work. */
export function goToItem(id: string) {
  window.location.hash = id;
}
