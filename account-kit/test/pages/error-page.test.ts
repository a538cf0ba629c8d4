// The error page reads errorCode, message and details from the address (what the service sends after a failed
// provider round trip) and shows the card a person understands.
import { describe, test } from 'bun:test';
import { newProject, openDemo, screenshot, setupBrowserSuite } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc);

const errorUrl = (q: Record<string, string>) => `/handler/error?${new URLSearchParams(q)}`;

describe('error page', () => {
  test('a known code with its message shows "An error occurred" with both', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto(errorUrl({ errorCode: 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', message: 'The OAuth client ID or secret is invalid.', details: '{"client_id":"x"}' }));
    await page.getByRole('heading', { name: 'An error occurred' }).waitFor();
    await page.getByText('Error Code: INVALID_OAUTH_CLIENT_ID_OR_SECRET').waitFor();
    await page.getByText('Error Message: The OAuth client ID or secret is invalid.').waitFor();
    await screenshot(page, 'error-generic');
    await page.getByRole('button', { name: 'Go to Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  test('the special cards: account already connected (both codes) and access denied', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto(errorUrl({ errorCode: 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER', message: 'x', details: '{}' }));
    await page.getByRole('heading', { name: 'Failed to connect account' }).waitFor();
    await page.getByText('This account is already connected to another user. Please connect a different account.').waitFor();
    await page.goto(errorUrl({ errorCode: 'USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION', message: 'x' }));
    await page.getByRole('heading', { name: 'Failed to connect account' }).waitFor();
    await page.getByText('This user is already connected to another account of this provider.').waitFor();
    await page.goto(errorUrl({ errorCode: 'OAUTH_PROVIDER_ACCESS_DENIED', message: 'The OAuth provider denied access to the user.' }));
    await page.getByRole('heading', { name: 'OAuth provider access denied' }).waitFor();
    await page.getByRole('button', { name: 'Go to Home' }).waitFor();
    await page.getByRole('button', { name: 'Sign in again' }).waitFor();
    await context.close();
  });

  test('missing parameters or details that are not JSON: "An unknown error occurred"', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/error');
    await page.getByRole('heading', { name: 'An unknown error occurred' }).waitFor();
    await page.goto(errorUrl({ errorCode: 'SOMETHING', message: 'x', details: '{not json' }));
    await page.getByRole('heading', { name: 'An unknown error occurred' }).waitFor();
    await page.getByText('Please try again and if the problem persists, contact support.').waitFor();
    await context.close();
  });
});
