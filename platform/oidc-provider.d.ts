// oidc-provider ships no types; the stand-in uses a handful of its API (platform/auth-standins.ts).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface Grant {
    jti: string;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface GrantCtor {
    new (init: { clientId: string; accountId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }
  interface OidcCtx {
    oidc: {
      session?: { accountId?: string; grantIdFor(clientId: string, value?: string): string | undefined };
      client?: { clientId: string };
      provider: { Grant: GrantCtor };
    };
  }
  interface Account { accountId: string; claims(): Promise<Record<string, unknown>> }
  interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: unknown[] };
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    pkce?: { required?: () => boolean };
    features?: Record<string, { enabled: boolean }>;
    findAccount?: (ctx: OidcCtx, sub: string) => Promise<Account | undefined>;
    loadExistingGrant?: (ctx: OidcCtx) => Promise<Grant | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
