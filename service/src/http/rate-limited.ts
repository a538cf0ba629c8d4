// 429 Too Many Requests. Not a known error (the protocol has none for it): a plain-text status error that the
// renderer answers with a `Retry-After` header, which the SDK honours before retrying.
import { StatusError } from '@gatehouse/shared/known-errors';

export class RateLimited extends StatusError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `Too many requests. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`);
    this.name = 'RateLimited';
  }
}
