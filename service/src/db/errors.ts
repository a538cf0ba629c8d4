// Recognising Postgres errors by their SQLSTATE code. Drivers differ (postgres.js puts the constraint in
// `constraint_name`, PGlite in `constraint`), and drizzle wraps the driver's error in its own with the failed SQL as
// `cause`: every check here looks through that chain.

/** Connection-level codes (Node, postgres.js) and SQLSTATEs meaning the database cannot be reached or is restarting. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND',
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
  '57P01', '57P02', '57P03', '53300', '57014', // admin/crash shutdown, starting up, too many connections, statement timeout
]);

interface PgError { code?: unknown; constraint_name?: string; constraint?: string; message?: string; cause?: unknown }

/** The error and the errors it wraps (a few levels: drizzle's wrapper, the driver's error). */
function* chain(err: unknown): Generator<PgError> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as PgError).cause, depth++) yield e as PgError;
}

function constraintOf(e: PgError): string {
  return e.constraint_name ?? e.constraint ?? '';
}

/** A unique violation (23505), on the index `index` when given. */
export function isUniqueViolation(err: unknown, index?: string): boolean {
  for (const e of chain(err)) {
    if (e.code !== '23505') continue;
    if (!index || constraintOf(e) === index || !!e.message?.includes(index)) return true;
  }
  return false;
}

/** A foreign-key violation (23503): a referenced row (team, user, owner) vanished under a concurrent delete. */
export function isForeignKeyViolation(err: unknown): boolean {
  for (const e of chain(err)) if (e.code === '23503') return true;
  return false;
}

/** The constraint named by a foreign-key violation, or undefined when `err` is not one. */
export function foreignKeyConstraint(err: unknown): string | undefined {
  for (const e of chain(err)) if (e.code === '23503') return constraintOf(e);
  return undefined;
}

/**
 * Whether `err` says the database is unavailable (class 08 connection exceptions included). Such errors are
 * answered 503 + Retry-After, without details (http/respond.ts).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of chain(err)) {
    if (typeof e.code === 'string' && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  }
  return false;
}
