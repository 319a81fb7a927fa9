// oidc-provider ships no types: the little the test helper uses (lib/testing/oidc-provider.ts).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type TGrant = {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  };
  type TOidcContext = {
    client: { clientId: string };
    session: { accountId: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    provider: Provider;
  };
  export type TKoaContext = {
    path: string;
    method: string;
    status: number;
    body: unknown;
    req: IncomingMessage;
    oidc: TOidcContext;
  };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(middleware: (ctx: TKoaContext, next: () => Promise<void>) => Promise<void>): void;
    Grant: {
      new (init: { clientId: string; accountId: string }): TGrant;
      find(id: string): Promise<TGrant | undefined>;
    };
  }
}
