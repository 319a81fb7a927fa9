// `tsx e2e/servers/oidc.ts`: a real OpenID Connect provider on loopback (E2E_OIDC_PORT, default 2527), started by
// Playwright's webServer before the apps. sso.spec.ts sets each person's claims over POST /test/accounts, then signs
// in at its login form (any login and password). The provider itself is lib/testing/oidc-provider.ts.
import { startOidcProvider } from "@/lib/testing/oidc-provider";
import { oidcProvider, selectedTargets } from "../targets";

const { port, clientId, clientSecret } = oidcProvider();
const provider = await startOidcProvider({
  port,
  clientId,
  clientSecret,
  redirectUris: selectedTargets().map((target) => `${target.appUrl}/api/auth/sso/callback`),
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    void provider.close().then(() => process.exit(0));
  });
}
