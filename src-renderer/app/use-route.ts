import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { NavigateOptions, Route } from '../routing/route';
import { parseRoute, serializeRoute } from './screens';

/** Fired after `history.replaceState`, which (unlike assigning `location.hash`) sends no event. */
const ROUTE_REPLACED_EVENT = 'console:route-replaced';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  window.addEventListener(ROUTE_REPLACED_EVENT, onChange);
  return () => {
    window.removeEventListener('hashchange', onChange);
    window.removeEventListener(ROUTE_REPLACED_EVENT, onChange);
  };
}

function readHash(): string {
  return window.location.hash;
}

export type { NavigateOptions };

export function navigateTo(route: Route, { replace = false }: NavigateOptions = {}): void {
  const hash = serializeRoute(route);
  if (hash === window.location.hash) return;
  if (replace) {
    window.history.replaceState(window.history.state, '', hash);
    window.dispatchEvent(new Event(ROUTE_REPLACED_EVENT));
  } else {
    window.location.hash = hash;
  }
}

/** The current route, parsed from the hash; the address bar is kept in normalised form. */
export function useRoute(): [Route, (route: Route, options?: NavigateOptions) => void] {
  const hash = useSyncExternalStore(subscribe, readHash);
  const route = useMemo(() => parseRoute(hash), [hash]);

  useEffect(() => {
    if (serializeRoute(route) !== hash) navigateTo(route, { replace: true });
  }, [route, hash]);

  const navigate = useCallback((next: Route, options?: NavigateOptions) => navigateTo(next, options), []);
  return [route, navigate];
}
