// The process's serving state, for a graceful shutdown (main.ts): requests are counted in and out, and once
// draining starts new ones are refused (503 + Retry-After, before any work) while the counted ones finish.
import { StatusError } from '@gatehouse/shared/known-errors';

/** 503 Service Unavailable (plain text, like the protocol's other status errors), answered with Retry-After. */
export class ServiceUnavailable extends StatusError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(503, message);
    this.name = 'ServiceUnavailable';
  }
}

class Lifecycle {
  private draining = false;
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  get isDraining(): boolean { return this.draining; }
  get requestsInFlight(): number { return this.inFlight; }

  /** Counts a request in; throws ServiceUnavailable once draining has started. */
  enter(): void {
    if (this.draining) throw new ServiceUnavailable('The service is shutting down. Please retry in a moment.', 5);
    this.inFlight++;
  }

  leave(): void {
    if (--this.inFlight === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Refuses new requests from now on and waits for the counted ones, at most `deadlineMs`; returns how many remain. */
  async drain(deadlineMs: number): Promise<number> {
    this.draining = true;
    if (this.inFlight > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.waiters.push(resolve)),
        new Promise<void>((resolve) => { timer = setTimeout(resolve, deadlineMs); }),
      ]);
      clearTimeout(timer);
    }
    return this.inFlight;
  }
}

/** One per process: a process serves one service. */
export const lifecycle = new Lifecycle();
