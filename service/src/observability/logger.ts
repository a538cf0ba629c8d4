// Structured logs (pino): JSON lines with levels in production, one readable line per entry in development
// (pino-pretty, written synchronously so that entries keep their order with the start-up lines). Settings:
// GATEHOUSE_LOG_LEVEL (trace|debug|info|warn|error|fatal|silent, default info), GATEHOUSE_LOG_FORMAT (json|pretty;
// default json in production, pretty elsewhere), GATEHOUSE_LOG_REQUESTS (false turns the access log off).
// Entries never carry request bodies, headers, tokens, codes or keys: only what callers pass, and the access log
// passes the route pattern (no path values, no query), status, duration and ids.
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export interface LogSettings {
  level: string;
  format: 'json' | 'pretty';
  accessLog: boolean;
}

/** Reads the log settings; a bad value throws `<VARIABLE>: ...` (the start stops on it). */
export function logSettings(env: Record<string, string | undefined>): LogSettings {
  const level = env.GATEHOUSE_LOG_LEVEL || 'info';
  if (!LEVELS.includes(level)) throw new Error(`GATEHOUSE_LOG_LEVEL: expected one of ${LEVELS.join(', ')}, got "${level}"`);
  const format = env.GATEHOUSE_LOG_FORMAT || (env.NODE_ENV === 'production' ? 'json' : 'pretty');
  if (format !== 'json' && format !== 'pretty') throw new Error(`GATEHOUSE_LOG_FORMAT: expected json or pretty, got "${format}"`);
  const requests = env.GATEHOUSE_LOG_REQUESTS;
  if (requests && requests !== 'true' && requests !== 'false') throw new Error(`GATEHOUSE_LOG_REQUESTS: expected true or false, got "${requests}"`);
  return { level, format, accessLog: requests !== 'false' };
}

export function createLogger(settings: LogSettings): Logger {
  const options = {
    level: settings.level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (settings.format === 'pretty') {
    return pino(options, pretty({ sync: true, colorize: Boolean(process.stdout.isTTY), singleLine: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' }));
  }
  // Asynchronous: a synchronous write per line cost GET /users/me a fifth of its CPU (the access log writes one line
  // per request; bench/RESULTS.md). Lines written while a write is in flight are joined into the next one, and pino
  // flushes what is left synchronously when the process exits.
  // At most 4 KiB a write (sonic-boom's default is 16 KiB). A line joins the last pending chunk, which sonic-boom
  // measured again (a copy of the whole chunk) at every line: a tenth of GET /users/me's CPU under load. It now
  // remembers the chunk's length (patches/sonic-boom+4.2.1.patch; service/test/log-writes.test.ts).
  return pino(options, pino.destination({ sync: false, maxWrite: 4096 }));
}

let current: { logger: Logger; settings: LogSettings } | undefined;

/** The service's logger (created from the environment on first use, or by `initLogging`). */
export function log(): Logger {
  current ??= (() => { const settings = logSettings({}); return { settings, logger: createLogger(settings) }; })();
  return current.logger;
}

export function initLogging(settings: LogSettings): Logger {
  current = { settings, logger: createLogger(settings) };
  return current.logger;
}

export function accessLogEnabled(): boolean {
  log();
  return current!.settings.accessLog;
}
