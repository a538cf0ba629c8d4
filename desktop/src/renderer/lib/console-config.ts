// What the service tells the web console about itself (a <meta> the service writes into index.html while the
// internal project's development key is valid; a meta rather than a script so the CSP can forbid inline code).
export interface ConsoleConfig {
  /** The internal project's publishable client key, or null: then the connect screen asks for one. */
  publishableClientKey: string | null;
}

export function parseConsoleConfig(content: string | null): ConsoleConfig {
  if (!content) return { publishableClientKey: null };
  try {
    const parsed = JSON.parse(content);
    return { publishableClientKey: typeof parsed?.publishableClientKey === 'string' && parsed.publishableClientKey ? parsed.publishableClientKey : null };
  } catch {
    return { publishableClientKey: null };
  }
}
