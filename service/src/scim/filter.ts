// The subset of SCIM filters (RFC 7644 §3.4.2.2) that identity providers send when they look for a resource before
// creating it: `attr eq "value"` on the attributes below, `emails[type eq "work"].value eq "…"`, joined by `and`.
// Anything else is refused with 400 invalidFilter, never answered with a wrong list. Pure.
import { ScimError } from './scim-error';

export type UserFilterField = 'id' | 'userName' | 'externalId' | 'email' | 'displayName' | 'active';
export type GroupFilterField = 'id' | 'displayName' | 'externalId';
export interface Comparison<F extends string> { field: F; value: string | boolean }

const USER_FIELDS: Record<string, UserFilterField> = {
  id: 'id', username: 'userName', externalid: 'externalId', displayname: 'displayName', active: 'active',
  emails: 'email', 'emails.value': 'email',
};
const GROUP_FIELDS: Record<string, GroupFilterField> = { id: 'id', displayname: 'displayName', externalid: 'externalId' };

const invalid = (detail: string) => new ScimError(400, detail, 'invalidFilter');

/** Splits a filter into tokens: attribute paths, operators, quoted strings (JSON escapes), brackets. */
function tokenize(filter: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < filter.length) {
    const ch = filter[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '"') {
      let j = i + 1;
      while (j < filter.length && filter[j] !== '"') j += filter[j] === '\\' ? 2 : 1;
      if (j >= filter.length) throw invalid('The filter has an unterminated string.');
      tokens.push(filter.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (ch === '[' || ch === ']' || ch === '(' || ch === ')') { tokens.push(ch); i++; continue; }
    let j = i;
    while (j < filter.length && !/[\s"[\]()]/.test(filter[j]!)) j++;
    tokens.push(filter.slice(i, j));
    i = j;
  }
  return tokens;
}

function literal(token: string | undefined): string | boolean {
  if (token === undefined) throw invalid('The filter ends before its value.');
  if (token.startsWith('"')) {
    try { return JSON.parse(token) as string; } catch { throw invalid(`The filter's value ${token} is not a valid string.`); }
  }
  const lower = token.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  throw invalid(`The filter's value ${token} is not supported (give a quoted string or a boolean).`);
}

function parse<F extends string>(filter: string, fields: Record<string, F>): Comparison<F>[] {
  if (filter.length > 1000) throw invalid('The filter is too long.');
  const tokens = tokenize(filter);
  const out: Comparison<F>[] = [];
  let i = 0;
  for (;;) {
    let path = tokens[i++]?.toLowerCase();
    if (!path) throw invalid('The filter is empty.');
    // emails[type eq "work"].value: the work address (the only kind a user has here).
    if (path === 'emails' && tokens[i] === '[') {
      const [attr, op, value, close] = tokens.slice(i + 1, i + 5);
      if (attr?.toLowerCase() !== 'type' || op?.toLowerCase() !== 'eq' || close !== ']' || literal(value) !== 'work') {
        throw invalid('Only emails[type eq "work"] is supported inside brackets.');
      }
      i += 5;
      const rest = tokens[i];
      if (rest?.toLowerCase() === '.value') i++;
      else if (rest?.toLowerCase().startsWith('.')) throw invalid(`emails${rest} is not supported.`);
      path = 'emails.value';
    }
    const field = fields[path];
    if (!field) throw invalid(`Filtering on ${tokens[i - 1]} is not supported.`);
    const op = tokens[i++]?.toLowerCase();
    if (op !== 'eq') throw invalid(`The operator ${op ?? '(none)'} is not supported; use eq.`);
    out.push({ field, value: literal(tokens[i++]) });
    if (i === tokens.length) return out;
    if (tokens[i++]?.toLowerCase() !== 'and') throw invalid('Comparisons may be joined only with and.');
  }
}

export const parseUserFilter = (filter: string) => parse(filter, USER_FIELDS);
export const parseGroupFilter = (filter: string) => parse(filter, GROUP_FIELDS);
