// The React context the provider fills: the app, the translator and the UI-level MFA prompt.
import { createContext, useContext } from 'react';
import type { GatehouseClientApp, SessionUser } from '@gatehouse/shared/client';
import { createTranslator, type Translate } from './messages';

export type AnyClientApp = GatehouseClientApp<SessionUser & any>;

export interface GatehouseContextValue {
  app: AnyClientApp;
  t: Translate;
  lang: string;
}

export const GatehouseContext = createContext<GatehouseContextValue | null>(null);

export function useGatehouseContext(): GatehouseContextValue {
  const value = useContext(GatehouseContext);
  if (!value) throw new Error('useGatehouseApp must be used within a GatehouseProvider');
  return value;
}

/** The client app of the nearest `<GatehouseProvider>`. */
export function useGatehouseApp<A extends AnyClientApp = AnyClientApp>(): A {
  return useGatehouseContext().app as A;
}

/** The translator of the nearest provider (English outside one, so widgets render in tests and stories). */
export function useTranslate(): Translate {
  return useContext(GatehouseContext)?.t ?? defaultTranslate;
}
const defaultTranslate = createTranslator();
