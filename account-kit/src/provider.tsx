// <GatehouseProvider>: puts the client app, the translator and Mantine in context, and shows the TOTP dialog
// when a sign-in needs a second factor.
import { Suspense, lazy, use, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { MantineProvider, type MantineThemeOverride } from '@mantine/core';
import { stackAppInternalsSymbol } from '@gatehouse/shared/client';
import { GatehouseContext, type AnyClientApp } from './context';
import { createTranslator, englishLoaded, loadCatalogue, type Messages } from './messages';
import { gatehouseCssVariables, gatehouseTheme } from './theme';
import { createMfaPromptController, type MfaPromptController } from './lib/mfa-prompt';

// Neither is needed to show a sign-in form: they load when first used, keeping the sign-in page small.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));
const MfaDialog = lazy(() => import('./components/mfa-dialog').then((m) => ({ default: m.MfaDialog })));

export interface GatehouseProviderProps {
  app: AnyClientApp;
  /** Mantine theme for the kit's screens (default: the kit's theme). Ignored with `mantine={false}`. */
  theme?: MantineThemeOverride;
  /** Language of the texts: 'en' (default) or 'de'. */
  lang?: string;
  /** Replacements for single texts of the catalogue. */
  messages?: Partial<Messages>;
  /** Set to false when the host app already renders its own MantineProvider and Notifications. */
  mantine?: boolean;
  /** Color scheme when the kit renders Mantine itself (default: follows the system). */
  colorScheme?: 'light' | 'dark' | 'auto';
  children?: ReactNode;
}

export function GatehouseProvider({ app, theme, lang = 'en', messages, mantine = true, colorScheme = 'auto', children }: GatehouseProviderProps) {
  // English is in the bundle; another language suspends the first render until its catalogue has loaded.
  const catalogue = lang === 'en' ? englishLoaded : use(loadCatalogue(lang));
  const t = useMemo(() => createTranslator(catalogue, messages), [catalogue, messages]);
  const value = useMemo(() => ({ app, t, lang }), [app, t, lang]);
  const mfa = useMemo(() => createMfaPromptController(), []);
  useEffect(() => app[stackAppInternalsSymbol].setUiMfaPrompt(mfa.prompt), [app, mfa]);
  // As StackProvider exposes `globalThis.__STACK_AUTH__`: the app is reachable from the browser console (and
  // from browser tests that drive what has no screen yet, such as registering a passkey).
  useEffect(() => {
    (globalThis as { __GATEHOUSE__?: { app: AnyClientApp } }).__GATEHOUSE__ = { app };
  }, [app]);

  const content = (
    <GatehouseContext.Provider value={value}>
      {children}
      <MfaPrompt controller={mfa} />
    </GatehouseContext.Provider>
  );
  if (!mantine) return content;
  return (
    <MantineProvider theme={theme ?? gatehouseTheme} cssVariablesResolver={theme ? undefined : gatehouseCssVariables} defaultColorScheme={colorScheme}>
      <DeferredNotifications />
      {content}
    </MantineProvider>
  );
}

/**
 * Mantine's notification container, mounted at the person's first click or key press (notifications answer what
 * they do) or after 10 s: no first page needs it, and its chunk would otherwise load beside the sign-in form.
 * `notifications.show()` before that is kept in Mantine's store and shown once the container mounts.
 */
function DeferredNotifications() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    const mount = () => setReady(true);
    const timer = setTimeout(mount, 10_000);
    window.addEventListener('pointerdown', mount, { capture: true, once: true });
    window.addEventListener('keydown', mount, { capture: true, once: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('pointerdown', mount, { capture: true });
      window.removeEventListener('keydown', mount, { capture: true });
    };
  }, [ready]);
  return ready ? <Suspense fallback={null}><Notifications /></Suspense> : null;
}

/** Mounts the TOTP dialog (a lazy chunk) from the first time a sign-in asks for a code. */
function MfaPrompt({ controller }: { controller: MfaPromptController }) {
  const pending = useSyncExternalStore(controller.subscribe, controller.current, controller.current);
  const everAsked = useSyncExternalStore(controller.subscribe, controller.everAsked, controller.everAsked);
  if (!pending && !everAsked) return null;
  return <Suspense fallback={null}><MfaDialog controller={controller} /></Suspense>;
}
