// Does a project id name a project of this service? Its public verification keys (GET
// /projects/{id}/.well-known/jwks.json, no credentials) answer 404 for no project (400 for what cannot be an id). The console asks when an admin
// key is refused, to say which of the two the owner typed wrong: project ids are public (every app sends its own).
import { NetworkError, type FetchLike } from './api-client.ts';

export async function projectExists(options: { baseUrl: string; projectId: string; fetch?: FetchLike }): Promise<boolean> {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const url = `${options.baseUrl.replace(/\/+$/, '')}/api/v1/projects/${encodeURIComponent(options.projectId)}/.well-known/jwks.json`;
  let res: Response;
  try {
    res = await doFetch(url, { method: 'GET' });
  } catch (cause) {
    throw new NetworkError(`Could not reach ${options.baseUrl}`, undefined, { cause });
  }
  // 404 (no such project) and 400 (not even a project id's shape) both mean no.
  return res.ok;
}
