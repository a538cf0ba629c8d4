// The `uuid` string format of the wire schemas: the service's check (service/src/http/validate.ts) and the console's
// form checks (desktop lib/schema-check.ts) judge it by this one rule.
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
