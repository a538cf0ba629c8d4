// `Result<T, E>`: errors listed in a method's signature are returned, everything else is thrown.

export type Result<T, E = unknown> = { status: 'ok'; data: T } | { status: 'error'; error: E };

export const Result = {
  ok<T>(data: T): Result<T, never> {
    return { status: 'ok', data };
  },
  error<E>(error: E): Result<never, E> {
    return { status: 'error', error };
  },
  /** Runs `fn`; errors matching one of `classes` are returned, others rethrown. */
  async catching<T, E extends Error>(
    fn: () => Promise<T>,
    matches: (err: unknown) => err is E,
  ): Promise<Result<T, E>> {
    try {
      return Result.ok(await fn());
    } catch (err) {
      if (matches(err)) return Result.error(err);
      throw err;
    }
  },
  orThrow<T>(result: Result<T, unknown>): T {
    if (result.status === 'ok') return result.data;
    throw result.error;
  },
};
