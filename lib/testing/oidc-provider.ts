// A real OpenID Connect provider (oidc-provider) on loopback, for the SSO integration tests, the e2e server
// (e2e/servers/oidc.ts) and the bench (scripts/bench-sso.ts). Any login is accepted; its claims are what
// `setAccount` gave it (POST /test/accounts from another process), else just a verified e-mail equal to the login.
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type TKoaContext } from "oidc-provider";

export type TAccountClaims = { email: string; email_verified: boolean; name?: string; groups?: string[] };

export type TOidcProviderOptions = {
  port?: number;
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
};

const otherClientId = "another-app";

export type TTestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  setAccount: (login: string, claims: TAccountClaims) => void;
  /** The next token response carries this ID token instead of its own (a token minted for someone else). */
  replaceNextIdToken: (idToken: string) => void;
  /** A genuine ID token of this provider, issued to another client (audience) for `login`, with `nonce`. */
  mintIdTokenForOtherClient: (login: string, nonce: string) => Promise<string>;
  close: () => Promise<void>;
};

const scope = "openid email profile";

async function readJson(ctx: TKoaContext): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export async function startOidcProvider(options: TOidcProviderOptions): Promise<TTestOidcProvider> {
  const clientId = options.clientId ?? "payments-dashboard";
  const clientSecret = options.clientSecret ?? randomBytes(24).toString("base64url");
  const otherClientSecret = randomBytes(24).toString("base64url");
  const accounts = new Map<string, TAccountClaims>();
  let idTokenReplacement: string | null = null;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const client = (client_id: string, client_secret: string) => ({
    client_id,
    client_secret,
    redirect_uris: options.redirectUris,
    grant_types: ["authorization_code"],
    response_types: ["code"],
  });

  const provider = new Provider(issuer, {
    clients: [client(clientId, clientSecret), client(otherClientId, otherClientSecret)],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test", use: "sig", alg: "RS256" }] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    claims: { openid: ["sub", "groups"], email: ["email", "email_verified"], profile: ["name"] },
    async findAccount(_ctx: unknown, login: string) {
      const claims = accounts.get(login) ?? { email: login, email_verified: true };
      return { accountId: login, claims: async () => ({ sub: login, ...claims }) };
    },
    // First-party clients: no consent screen.
    async loadExistingGrant(ctx: TKoaContext) {
      const { oidc } = ctx;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope(scope);
      await grant.save();
      return grant;
    },
  });

  provider.use(async (ctx, next) => {
    if (ctx.path === "/test/accounts" && ctx.method === "POST") {
      const { login, claims } = (await readJson(ctx)) as { login: string; claims: TAccountClaims };
      accounts.set(login, claims);
      ctx.status = 204;
      return;
    }
    await next();
    if (ctx.path === "/token" && idTokenReplacement && ctx.body && typeof ctx.body === "object") {
      ctx.body = { ...ctx.body, id_token: idTokenReplacement };
      idTokenReplacement = null;
    }
  });
  server.on("request", provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    setAccount: (login, claims) => accounts.set(login, claims),
    replaceNextIdToken: (idToken) => {
      idTokenReplacement = idToken;
    },
    mintIdTokenForOtherClient: async (login, nonce) => {
      const verifier = randomBytes(32).toString("base64url");
      const redirectUri = options.redirectUris[0]!;
      const url = new URL("/auth", issuer);
      url.search = new URLSearchParams({
        client_id: otherClientId,
        response_type: "code",
        scope,
        redirect_uri: redirectUri,
        nonce,
        state: randomBytes(8).toString("hex"),
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
      }).toString();
      const back = await signInAtProvider(url.toString(), login);
      const response = await fetch(new URL("/token", issuer), {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${otherClientId}:${otherClientSecret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: back.searchParams.get("code") ?? "",
          redirect_uri: redirectUri,
          code_verifier: verifier,
        }).toString(),
      });
      const body = (await response.json()) as { id_token?: string };
      if (!body.id_token) throw new Error(`no ID token for ${otherClientId}: ${JSON.stringify(body)}`);
      return body.id_token;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Sets an account's claims at a provider running in another process (e2e/servers/oidc.ts). */
export async function setRemoteAccount(issuer: string, login: string, claims: TAccountClaims): Promise<void> {
  const response = await fetch(`${issuer}/test/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login, claims }),
  });
  if (response.status !== 204) throw new Error(`the test provider answered ${response.status}`);
}

/**
 * What a browser does at the provider: follows the authorization URL, signs in at the dev login form as `login`, and
 * returns the redirect back to the app (with `code`, `state` and `iss`).
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const request = async (url: URL, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...init.headers, cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    await response.arrayBuffer();
    const location = response.headers.get("location");
    if (!location) throw new Error(`the provider answered ${response.status} at ${url.pathname} without a redirect`);
    return new URL(location, url);
  };
  let next = await request(new URL(authorizationUrl));
  for (let step = 0; step < 6; step += 1) {
    if (!next.pathname.startsWith("/interaction/") && next.origin === new URL(authorizationUrl).origin) {
      next = await request(next);
      continue;
    }
    if (!next.pathname.startsWith("/interaction/")) return next;
    next = await request(next, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ prompt: "login", login, password: "any" }).toString(),
    });
  }
  throw new Error("the provider did not send the browser back");
}
