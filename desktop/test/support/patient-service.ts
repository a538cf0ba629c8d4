// The service started as service/test/support/service.ts does, but waiting up to 4 minutes for it: on the shared
// 2-core machine, with other developers' builds and tests running, a cold start can take longer than a minute.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../../service/test/support/service';

const SERVICE_ENTRY = join(import.meta.dir, '../../../service/src/main.ts');
const EXIT_WITH_PARENT = join(import.meta.dir, '../../../service/test/support/exit-with-parent.ts');

export async function startPatientService(opts: { env?: Record<string, string | undefined> } = {}): Promise<RunningService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-console-test-'));
  const proc = Bun.spawn([process.execPath, EXIT_WITH_PARENT, process.execPath, SERVICE_ENTRY], {
    env: { ...process.env, PORT: '0', GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test', ...opts.env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  void collect(proc.stdout);
  void collect(proc.stderr);
  const stop = async () => {
    proc.kill('SIGTERM');
    await Promise.race([proc.exited, Bun.sleep(5000)]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    const m = /listening on (http:\/\/localhost:\d+)/.exec(output);
    if (m) return { url: m[1]!, output: () => output, stop };
    if (proc.exitCode !== null) throw new Error(`service exited (${proc.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`service did not start in 4 minutes:\n${output}`);
    }
    await Bun.sleep(100);
  }
}
