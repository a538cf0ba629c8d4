// SCIM's discovery documents (RFC 7644 §4; RFC 7643 §5-7), the same for every team: what Gatehouse supports, so
// that a provider sends only that (PATCH yes; bulk, sort, ETags and password changes no; filters up to 1000 results).
import { SCIM_SCHEMAS } from '../presenters/scim';

const SPC = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SPC],
    documentationUri: `${baseUrl.replace(/\/scim\/v2\/.*$/, '')}/api/v1/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 1000 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{
      type: 'oauthbearertoken', name: 'Bearer token', primary: true,
      description: "A SCIM token of the team, created in Gatehouse (POST /api/v1/teams/{team_id}/scim-tokens), sent as Authorization: Bearer.",
    }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  return [
    { schemas: [RESOURCE_TYPE], id: 'User', name: 'User', endpoint: '/Users', schema: SCIM_SCHEMAS.user, meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` } },
    { schemas: [RESOURCE_TYPE], id: 'Group', name: 'Group', endpoint: '/Groups', schema: SCIM_SCHEMAS.group, meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` } },
  ];
}

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name, type, multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...extra,
});

export function schemas(baseUrl: string) {
  return [
    {
      schemas: [SCHEMA], id: SCIM_SCHEMAS.user, name: 'User', description: 'A user of the team',
      attributes: [
        attribute('userName', 'string', { required: true, uniqueness: 'server' }),
        attribute('externalId', 'string', { caseExact: true }),
        attribute('name', 'complex', { subAttributes: ['formatted', 'givenName', 'familyName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((n) => attribute(n, 'string')) }),
        attribute('displayName', 'string'),
        attribute('emails', 'complex', { multiValued: true, subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')] }),
        attribute('active', 'boolean'),
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCIM_SCHEMAS.user}` },
    },
    {
      schemas: [SCHEMA], id: SCIM_SCHEMAS.group, name: 'Group', description: 'A group of the team',
      attributes: [
        attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
        attribute('externalId', 'string', { caseExact: true }),
        attribute('members', 'complex', { multiValued: true, subAttributes: [attribute('value', 'string', { mutability: 'immutable' }), attribute('display', 'string', { mutability: 'readOnly' })] }),
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCIM_SCHEMAS.group}` },
    },
  ];
}
