// 429 Too Many Requests: the known error RATE_LIMITED (Gatehouse's own code, so clients can tell a limit from other
// errors), answered with a `Retry-After` header saying when the window ends.
import { KnownErrors } from '@gatehouse/shared/known-errors';

export class RateLimited extends KnownErrors.RateLimited {
  constructor(readonly retryAfterSeconds: number) {
    super(retryAfterSeconds);
  }
}
