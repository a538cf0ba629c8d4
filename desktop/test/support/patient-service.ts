// The service started as service/test/support/service.ts does, but waiting up to 4 minutes for it: on the shared
// 2-core machine, with other developers' builds and tests running, a cold start can take longer than a minute.
import { startService, type RunningService } from '../../../service/test/support/service';

export function startPatientService(opts: { env?: Record<string, string | undefined> } = {}): Promise<RunningService> {
  // The internal project's anonymous sign-up stays at its default (off), as an operator's console has it.
  return startService({ env: { GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP: 'false', ...opts.env }, startTimeoutMs: 240_000 });
}
