// The OAuth apps screen's "Client registration and resources" section (issue 27): where the provider's registration
// endpoint is, and the check of a protected resource (RFC 8707) before it is added. A resource is checked by the
// schema the service validates the change with (shared/src/schemas/oauth-provider.ts: an http(s) URL without a
// fragment, its length, how many), the whole list as it would be sent; the service keeps a resource once and
// matches it exactly as written, so a resource already listed is refused here instead of silently merged.
import { OAuthProviderSettingsUpdate } from '@gatehouse/shared/schemas/oauth-provider';
import { issuerUrl } from './oauth-apps';
import { schemaProblems } from './schema-check';

/** The registration endpoint (RFC 7591) the provider's discovery names while dynamic registration is on. */
export function registrationEndpoint(serviceUrl: string, projectId: string): string {
  return `${issuerUrl(serviceUrl, projectId)}/reg`;
}

/** The service's limit on protected resources, read from its schema. */
export const MAX_RESOURCES: number = (OAuthProviderSettingsUpdate.properties.resources as { maxItems?: number }).maxItems ?? 20;

export interface ResourceFormValues { resource: string }

export interface ResourceFormMessages {
  required: string;
  /** Not an absolute http:// or https:// URL, or one with a #fragment. */
  url: string;
  twice: string;
  tooMany: string;
}

/** The resources to send once `candidate` is added: the listed ones as they are, then the new one trimmed. */
export function resourcesWith(listed: readonly string[], candidate: string): string[] {
  return [...listed, candidate.trim()];
}

export function resourcesWithout(listed: readonly string[], removed: string): string[] {
  return listed.filter((r) => r !== removed);
}

/** The form's errors (`resource`), as @mantine/form keeps them. */
export function validateResourceForm(v: ResourceFormValues, listed: readonly string[], m: ResourceFormMessages): Record<string, string> {
  const resource = v.resource.trim();
  if (!resource) return { resource: m.required };
  if (listed.includes(resource)) return { resource: m.twice };
  const at = `/resources/${listed.length}`;
  for (const p of schemaProblems(OAuthProviderSettingsUpdate, { resources: resourcesWith(listed, resource) })) {
    if (p.path === '/resources') return { resource: m.tooMany };
    // Too long is worded by its limit; any other problem of the URL (format, scheme, fragment) by the form's own text.
    if (p.path === at) return { resource: p.problem.key === 'validation.tooLong' ? p.text : m.url };
  }
  return {};
}
