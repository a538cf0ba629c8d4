import { describe, test } from 'bun:test';
import { openConsole, screenshot, setupConsoleSuite, signUpOwner } from './support/console';

const { svc } = await setupConsoleSuite();

describe('smoke', () => {
  test('sign up', async () => {
    const { context, page } = await openConsole(svc);
    await screenshot(page, 'smoke-connect');
    await signUpOwner(page);
    await screenshot(page, 'smoke-projects');
    await context.close();
  });
});
