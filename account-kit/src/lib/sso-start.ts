// The SSO connection a sign-in page was sent to start (`?sso_connection_id=`, by an IdP-initiated SAML sign-in that
// Gatehouse turns into an app-initiated one). Only a UUID is taken. Pure.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function ssoConnectionToStart(search: string): string | null {
  const id = new URLSearchParams(search).get('sso_connection_id');
  return id && UUID.test(id) ? id : null;
}
