// LISTEN on a connection of its own, which says when it is lost as well as when it is (again) up. postgres.js's own
// `listen` reconnects by itself but tells nobody that it was down; the user rows kept by change notices
// (db/change-notices.ts) must not be served while notices may be going unheard (issue 31).
import type postgres from 'postgres';

export interface ListenHandlers {
  onPayload(payload: string): void;
  /** Every (re)connection: notifications may have been missed before it. */
  onConnect?(): void;
  /** The listening connection closed: notifications are unheard until `onConnect`. */
  onLost?(): void;
}

type Postgres = typeof postgres;

/** Listens on `channel` with a connection of its own (the pool's options: `options`); reconnects until unlisten. */
export async function listenWithState(make: Postgres, url: string, options: postgres.Options<Record<string, postgres.PostgresType>>, channel: string, handlers: ListenHandlers) {
  let stopped = false;
  let relistening = false;
  const quoted = '"' + channel.replace(/"/g, '""') + '"';
  // No idle timeout and no lifetime (the driver's `null`, which its types do not list): the connection stays.
  const forever = null as unknown as undefined;
  // `onnotify` is the driver's own hook for notifications (what its `listen` uses), missing from its types.
  // Its own pace of reconnection: a tenth of a second between attempts (one connection; the pool's backoff grows to a
  // second, and every notice missed meanwhile is a change other instances see late).
  const sql = make(url, {
    ...options, max: 1, idle_timeout: forever, max_lifetime: forever, fetch_types: false, backoff: () => 0.1,
    onnotify: (name: string, payload: string) => { if (name === channel) handlers.onPayload(payload); },
    onclose: () => {
      if (stopped) return;
      handlers.onLost?.();
      void relisten();
    },
  } as postgres.Options<Record<string, postgres.PostgresType>>);
  const listen = async () => {
    await sql.unsafe(`listen ${quoted}`);
    if (!stopped) handlers.onConnect?.();
  };
  // After a loss: LISTEN again (the driver opens a new connection for it) until it works.
  async function relisten() {
    if (relistening) return;
    relistening = true;
    try {
      while (!stopped) {
        try { await listen(); return; } catch { await Bun.sleep(100); }
      }
    } finally { relistening = false; }
  }
  await listen();
  return {
    async unlisten() {
      stopped = true;
      await sql.end({ timeout: 1 }).catch(() => {});
    },
  };
}
