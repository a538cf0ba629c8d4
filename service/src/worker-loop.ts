// What the two outbox workers (email/outbox.ts, webhooks/worker.ts) share: the retry back-off, and the loop that
// runs rounds (claim a batch, handle it) back to back while batches come back full or a kick arrived during the
// round, and otherwise sleeps until the poll interval passes or a kick wakes it.

/** Delay before attempt n+1 after n failed attempts: equal jitter, in [d/2, d] with d = min(cap, base·2^(n−1)). */
export function backoffDelayMs(attempts: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const d = Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(d / 2 + (random() * d) / 2);
}

export interface PollingLoop {
  /** Run a round now (or right after the one in progress). */
  kick(): void;
  /** Stops after the round in progress, which it waits for. */
  stop(): Promise<void>;
}

export function startPollingLoop(o: {
  pollMs: number;
  batchSize: number;
  /** Returns the number of rows handled; a full batch means more may be due. */
  round: () => Promise<number>;
  onRoundError: (err: unknown) => void;
}): PollingLoop {
  let stopped = false;
  let kicked = false;
  let wake: (() => void) | null = null;

  async function loop(): Promise<void> {
    while (!stopped) {
      kicked = false;
      let busy = false;
      try {
        busy = (await o.round()) >= o.batchSize;
      } catch (err) {
        o.onRoundError(err);
      }
      if (stopped) break;
      if (busy || kicked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, o.pollMs);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
    }
  }

  const running = loop();
  return {
    kick() {
      kicked = true;
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}

/**
 * The wake-up calls of one kind of worker running in this process (Services holds one set per kind): whoever
 * made rows due (an event, a retry-now) wakes them instead of waiting for their next poll.
 */
export class Wakers {
  private readonly calls = new Set<() => void>();
  /** Registers a worker's wake-up call; returns its removal. */
  add(call: () => void): () => void {
    this.calls.add(call);
    return () => { this.calls.delete(call); };
  }
  wake(): void {
    for (const call of this.calls) call();
  }
}
