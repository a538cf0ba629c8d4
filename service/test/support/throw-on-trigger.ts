// Preloaded into the service by safety-net.test.ts: when the file named by GATEHOUSE_TEST_TRIGGER appears, an
// error is thrown from a timer (nothing can catch it) and a promise is rejected with no handler, as a driver
// callback or a forgotten promise would.
import { existsSync } from 'node:fs';

const trigger = process.env.GATEHOUSE_TEST_TRIGGER;
if (trigger) {
  const poll = setInterval(() => {
    if (!existsSync(trigger)) return;
    clearInterval(poll);
    setTimeout(() => { throw new Error('thrown from a timer by the test'); }, 0);
    void Promise.reject(new Error('rejected without a handler by the test'));
  }, 10);
}
