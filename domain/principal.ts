// The acting principal: who a service call acts for. Services take it for tenancy; routes only
// resolve it (from an API key, or a signed-in member's session) and pass it on.
export const ROLES = ['owner', 'admin', 'developer', 'compliance'] as const;
export type Role = (typeof ROLES)[number];

export interface ApiKeyPrincipal {
  readonly kind: 'api_key';
  readonly projectId: string;
  readonly apiKeyId: string;
}

export interface MemberPrincipal {
  readonly kind: 'member';
  readonly userId: string;
  readonly orgId: string;
  readonly role: Role;
}

export type Principal = ApiKeyPrincipal | MemberPrincipal;
