// Response validation (issue 13 §1): outside production every JSON answer is checked against its route's response
// schema, and a mismatch fails the request with a 500 and a log line naming the route and the path that differs,
// so a test sees it. In production the answer goes out unchecked. The routes here are the app's own machinery
// (createApp, runRoute) over a real database; their handlers return what a drifted database row or a forgotten
// field would give, read through JSON.parse so that the compiler, which catches the rest, cannot see it.
import { afterAll, beforeAll, expect, spyOn, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { List, Strict } from '@gatehouse/shared/schemas/common';
import { loadConfig } from '../src/config';
import { type Database } from '../src/db/index';
import { openTestDatabase } from './support/pglite-template';
import { createServices, type Services } from '../src/services';
import { createApp } from '../src/app';
import { HttpResult } from '../src/http/respond';
import { perAccess, route } from '../src/http/route';
import { isolatedDatabase } from './support/isolated-database';

const Thing = Strict({ id: Type.String(), count: Type.Number(), label: Type.Optional(Type.String()) });
const ClientView = Strict({ id: Type.String() });
const ServerView = Strict({ id: Type.String(), secret_note: Type.String() });

const fromDatabase = (json: string) => JSON.parse(json);

const routes = [
  route({
    method: 'GET', path: '/test/good', summary: 'A matching answer', access: 'optional', response: List(Thing),
    async handler() { return { items: [{ id: 'a', count: 1 }, { id: 'b', count: 2, label: 'two' }], is_paginated: false as const }; },
  }),
  route({
    method: 'GET', path: '/test/wrong-type', summary: 'A count stored as a string', access: 'optional', response: List(Thing),
    async handler() { return fromDatabase('{"items":[{"id":"a","count":1},{"id":"b","count":"2"}],"is_paginated":false}'); },
  }),
  route({
    method: 'GET', path: '/test/missing-field', summary: 'A required field left out', access: 'optional', response: Thing,
    async handler() { return fromDatabase('{"id":"a"}'); },
  }),
  route({
    method: 'GET', path: '/test/extra-field', summary: 'A server field leaking into the client view', access: 'optional',
    response: perAccess({ client: ClientView, server: ServerView }),
    async handler() { return fromDatabase('{"id":"a","secret_note":"for servers only"}'); },
  }),
  route({
    method: 'GET', path: '/test/text', summary: 'An HttpResult is not a JSON answer of the schema', access: 'optional', response: Thing,
    async handler() { return HttpResult.text('plain text'); },
  }),
];

let dir: string;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let database: Database;
let services: Services;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-response-validation-'));
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: dir, poolSize: 2 });
  services = await createServices(loadConfig({ NODE_ENV: 'test', GATEHOUSE_DATA_DIR: dir }), database);
});

afterAll(async () => {
  for (const stop of services.onStop) await stop();
  await database.close();
  await scratch.drop();
  rmSync(dir, { recursive: true, force: true });
});

function appFor(mode: 'test' | 'development' | 'production') {
  const config = loadConfig({ NODE_ENV: mode, GATEHOUSE_DATA_DIR: dir });
  expect(config.isProduction).toBe(mode === 'production');
  return createApp({ ...services, config }, routes);
}

async function get(app: ReturnType<typeof createApp>, path: string) {
  const res = await app.handle(new Request(`http://localhost/api/v1${path}`));
  return { status: res.status, text: await res.text() };
}

/** Runs `fn` with console.error recorded (the service's error log), and returns what was logged. */
async function logged<T>(fn: () => Promise<T>): Promise<{ result: T; log: string }> {
  const spy = spyOn(console, 'error').mockImplementation(() => {});
  try {
    const result = await fn();
    const log = spy.mock.calls.map((args) => args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(' ')).join('\n');
    return { result, log };
  } finally {
    spy.mockRestore();
  }
}

for (const mode of ['test', 'development'] as const) {
  test(`${mode}: a matching answer passes unchanged`, async () => {
    const res = await get(appFor(mode), '/test/good');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ items: [{ id: 'a', count: 1 }, { id: 'b', count: 2, label: 'two' }], is_paginated: false });
  });

  test(`${mode}: a field of the wrong type fails the request with a 500 naming the route and the path`, async () => {
    const { result, log } = await logged(() => get(appFor(mode), '/test/wrong-type'));
    expect(result.status).toBe(500);
    expect(result.text).toContain('Response validation failed on GET /test/wrong-type');
    expect(result.text).toContain('response.items[1].count must be a `number` type, but the final value was: `"2"`.');
    expect(log).toContain('ResponseMismatch: Response validation failed on GET /test/wrong-type');
    expect(log).toContain('response.items[1].count');
  });

  test(`${mode}: a missing required field fails the request`, async () => {
    const { result, log } = await logged(() => get(appFor(mode), '/test/missing-field'));
    expect(result.status).toBe(500);
    expect(result.text).toContain('response.count must be defined');
    expect(log).toContain('GET /test/missing-field');
  });

  test(`${mode}: the access type's schema is the one checked (a server field in a client answer fails)`, async () => {
    const { result } = await logged(() => get(appFor(mode), '/test/extra-field'));
    expect(result.status).toBe(500);
    expect(result.text).toContain('response contains unknown properties: secret_note');
    expect(result.text).toContain('no access');
  });
}

test('an HttpResult (text, redirect) is passed through: the schema describes JSON answers only', async () => {
  const res = await get(appFor('test'), '/test/text');
  expect(res).toEqual({ status: 200, text: 'plain text' });
});

test('production: answers are not checked, mismatches go out as the handler returned them', async () => {
  const app = appFor('production');
  const { result: wrong, log } = await logged(() => get(app, '/test/wrong-type'));
  expect(wrong.status).toBe(200);
  expect(JSON.parse(wrong.text).items[1].count).toBe('2');
  expect(log).toBe('');
  const missing = await get(app, '/test/missing-field');
  expect(missing).toEqual({ status: 200, text: '{"id":"a"}' });
  const extra = await get(app, '/test/extra-field');
  expect(extra.status).toBe(200);
});
