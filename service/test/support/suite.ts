// The preamble most HTTP test files share: a default timeout that fits a busy machine, the process's shared
// service and a fresh project of the file's own. At the top of a test file: `const { svc, p } = await setupSuite();`.
import { setDefaultTimeout } from 'bun:test';
import { sharedService, type SharedService } from './service';
import { newProject, type TestProject } from './projects';

export async function setupSuite(o: { startupTimeoutMs?: number } = {}): Promise<{ svc: SharedService; p: TestProject }> {
  // The machine may be busy (other suites, password hashing): bun's default of 5 s per test is too tight.
  setDefaultTimeout(60_000);
  const ms = o.startupTimeoutMs ?? 120_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A service that never comes up fails the file instead of hanging it (as beforeAll's timeout did).
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the shared test service and project were not ready within ${ms} ms`)), ms);
  });
  try {
    const svc = await Promise.race([sharedService(), timeout]);
    const p = await Promise.race([newProject(svc), timeout]);
    return { svc, p };
  } finally {
    clearTimeout(timer);
  }
}
