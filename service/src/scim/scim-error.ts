// SCIM's own errors (RFC 7644 §3.12): a status and, for 400s and 409s, a `scimType` keyword. The SCIM endpoints
// answer them as `urn:ietf:params:scim:api:messages:2.0:Error` documents (http/scim.ts), never as Stack's known
// errors: an identity provider reads only SCIM's format.

export type ScimType =
  | 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget'
  | 'invalidValue' | 'invalidVers' | 'sensitive';

export class ScimError extends Error {
  constructor(readonly status: number, readonly detail: string, readonly scimType?: ScimType) {
    super(detail);
    this.name = 'ScimError';
  }
}

export const scimNotFound = (what: 'User' | 'Group', id: string) => new ScimError(404, `${what} ${id} not found.`);
export const scimInvalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const scimUniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');
