// scripts/check-cycles.mjs and scripts/check-front-end.mjs (run by `npm test`): each rule is shown to catch a violation
// in a scratch tree, and a tree that keeps the rules passes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'bun:test';

const SCRIPTS = join(import.meta.dir, '../../scripts');
let root = '';

function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'gatehouse-front-checks-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function run(script: string, ...args: string[]): { code: number; output: string } {
  const r = Bun.spawnSync(['node', join(SCRIPTS, script), ...args], { stdout: 'pipe', stderr: 'pipe' });
  return { code: r.exitCode ?? -1, output: r.stdout.toString() + r.stderr.toString() };
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = '';
});

describe('check-cycles', () => {
  const cycles = (dir: string) => run('check-cycles.mjs', join(dir, 'pkg'));

  test('a static cycle fails, naming its modules in order', () => {
    const r = cycles(tree({
      'pkg/a.ts': "import { b } from './b';\nexport const a = () => b();\n",
      'pkg/b.tsx': "import { c } from './c.ts';\nexport const b = () => c;\n",
      'pkg/c.ts': "export { a } from './a';\nexport const c = 1;\n",
      'pkg/d.ts': "import { a } from './a';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('1 runtime import cycle(s)');
    expect(r.output).toContain('3 modules: pkg/a.ts → pkg/b.tsx → pkg/c.ts → pkg/a.ts');
  });

  test('type-only imports, import() and comments do not close a cycle; a side-effect import does', () => {
    const clean = cycles(tree({
      'pkg/a.ts': "import { b } from './b';\nexport type A = { n: number };\n",
      'pkg/b.ts': [
        "import type { A } from './a';",
        "import { type A as Same } from './a';",
        "export type { A as Again } from './a';",
        "// import { a } from './a';",
        "export const b = async (): Promise<A | Same> => (await import('./a')) as never;",
      ].join('\n'),
    }));
    expect(clean.output).toContain('check-cycles: no runtime import cycle');
    expect(clean.code).toBe(0);
    rmSync(root, { recursive: true, force: true });

    const sideEffect = cycles(tree({ 'pkg/a.ts': "import './b';\n", 'pkg/b.ts': "import { x } from './a';\n" }));
    expect(sideEffect.code).toBe(1);
    expect(sideEffect.output).toContain('2 modules: pkg/a.ts → pkg/b.ts → pkg/a.ts');
  });

  test('the repository has no runtime cycle in shared/, account-kit/ and desktop/', () => {
    const r = run('check-cycles.mjs');
    expect(r.output).toContain('no runtime import cycle in shared, account-kit, desktop');
    expect(r.code).toBe(0);
  });
});

describe('check-front-end', () => {
  const CLEAN = {
    'shared/src/client/core.ts': "// any comment may say any\nexport function json<Res = unknown>(): Promise<Res> { return Promise.resolve('any' as never); }\n",
    'shared/src/react/use-read.ts': "import { useSyncExternalStore } from 'react';\nexport const useRead = useSyncExternalStore;\n",
    'desktop/src/renderer/hooks/use-users.ts': "import { useCachedRead } from '@gatehouse/shared/react';\nexport const useUsers = (app: any) => useCachedRead(app.serverReads.users());\n",
    'desktop/src/renderer/screens/users.tsx': "import { useUsers } from '../hooks/use-users';\nexport const Users = () => useUsers(null).length;\n",
    'account-kit/src/settings/emails.tsx': "import { useContactChannels } from '../hooks/use-user-data';\n",
    'service/src/email/outbox.ts': "import { renderTemplate } from '@gatehouse/shared/email-templates';\n",
  };
  const check = (files: Record<string, string>) => run('check-front-end.mjs', tree(files));

  test('a tree that keeps the rules passes', () => {
    const r = check(CLEAN);
    expect(r.output).toContain('check-front-end: ');
    expect(r.output).toContain('rules kept');
    expect(r.code).toBe(0);
  });

  test('`any` in the client library fails, with its line', () => {
    const r = check({ ...CLEAN, 'shared/src/client/models/users.ts': "export type A = string;\nexport function f(json: any) { return json as Array<any>; }\n" });
    expect(r.code).toBe(1);
    expect(r.output).toContain('shared/src/client/models/users.ts:2: `any`');
    expect(r.output).toContain('2 violation(s)');
  });

  test('a front end importing the service fails, by path or by package', () => {
    const r = check({
      ...CLEAN,
      'desktop/src/renderer/lib/preview.ts': "import { renderTemplate } from '../../../../service/src/email/templates';\n",
      'account-kit/src/lib/x.ts': "import type { Services } from '@gatehouse/service/services';\n",
      'service/src/email/templates.ts': 'export const renderTemplate = 1;\n',
    });
    expect(r.code).toBe(1);
    expect(r.output).toContain('desktop/src/renderer/lib/preview.ts: imports ../../../../service/src/email/templates');
    expect(r.output).toContain('account-kit/src/lib/x.ts: imports @gatehouse/service/services');
  });

  test('a read taken in a component fails; the same read in a hook passes', () => {
    const r = check({
      ...CLEAN,
      'desktop/src/renderer/screens/metrics.tsx': "const read = useMemo(() => app.adminReads.metrics(), [app]);\nconst m = useCachedRead(read);\n",
      'account-kit/src/settings/team.tsx': "const read = useMemo(() => team[cachedReadsSymbol].users(), [team]);\n",
      'desktop/src/renderer/screens/sent-emails.tsx': "import { useProjectContext } from '../hooks/use-project-context';\nconst emails = useLoader(() => app.listSentEmails(), [app]);\n",
    });
    expect(r.code).toBe(1);
    expect(r.output).toContain('desktop/src/renderer/screens/metrics.tsx:1: a read taken in a component');
    expect(r.output).toContain('desktop/src/renderer/screens/metrics.tsx:2: a read taken in a component');
    expect(r.output).toContain('account-kit/src/settings/team.tsx:1: a read taken in a component');
    expect(r.output).toContain('desktop/src/renderer/screens/sent-emails.tsx:2: a read taken in a component');
  });

  test("an error's own text rendered fails, whichever way it is read", () => {
    const r = check({
      ...CLEAN,
      'desktop/src/renderer/screens/users.tsx': [
        "notifications.show({ message: (e as Error).message });",
        "const a = <span>{page.error.message}</span>;",
        "const b = err?.message ?? String(err);",
        "const c = passwordError.message;",
        "const fine = [content.message, record.message, error.details?.message, t('errors.refused')];",
      ].join('\n'),
      'account-kit/src/settings/emails.tsx': "form.setFieldError('email', err instanceof KnownError ? err.message : '');\n",
    });
    expect(r.code).toBe(1);
    for (const line of [1, 2, 4]) expect(r.output).toContain(`desktop/src/renderer/screens/users.tsx:${line}: an error's own text`);
    expect(r.output.match(/users\.tsx:3: an error's own text/g)).toHaveLength(2);
    expect(r.output).not.toContain('users.tsx:5:');
    expect(r.output).toContain("account-kit/src/settings/emails.tsx:1: an error's own text");
  });

  test('a lib/ module importing React or a layer above it fails, and so does a hook importing a screen', () => {
    const r = check({
      ...CLEAN,
      'account-kit/src/lib/use-once.ts': "import { useState } from 'react';\n",
      'desktop/src/renderer/lib/users.ts': "import { UsersScreen } from '../screens/users';\nimport { t } from '../messages';\n",
      'desktop/src/renderer/hooks/use-x.ts': "import { Users } from '../screens/users';\nimport { useLoader } from './use-loader';\n",
    });
    expect(r.code).toBe(1);
    expect(r.output).toContain('account-kit/src/lib/use-once.ts: imports react');
    expect(r.output).toContain('desktop/src/renderer/lib/users.ts: imports ../screens/users');
    expect(r.output).toContain('desktop/src/renderer/hooks/use-x.ts: imports ../screens/users');
    expect(r.output).toContain('3 violation(s)');
  });

  test('React in shared/ outside shared/src/react, or the service loading that folder, fails', () => {
    const r = check({
      ...CLEAN,
      'shared/src/client/hooks.ts': "import { useState } from 'react';\n",
      'service/src/http/x.ts': "import { useRead } from '../../../shared/src/react/use-read';\n",
    });
    expect(r.code).toBe(1);
    expect(r.output).toContain('shared/src/client/hooks.ts: imports react');
    expect(r.output).toContain('service/src/http/x.ts: imports ../../../shared/src/react/use-read');
  });
});
