import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { formatRateLimitedError } from "@/lib/auth/sign-in-error";
import { startPasskeySignInAction } from "../actions";

export type TPasskeyAssertion = { ok: true; response: string } | { ok: false; error: string };

// The browser's half: a fresh challenge from the server, then the authenticator. The assertion goes to next-auth as
// JSON text; failures come back as sign-in error codes the form already describes, or a passkey* message key.
export async function getPasskeyAssertion(): Promise<TPasskeyAssertion> {
  if (!browserSupportsWebAuthn()) return { ok: false, error: "passkeyUnsupported" };
  const started = await startPasskeySignInAction({}).catch(() => null);
  if (!started) return { ok: false, error: "unavailable" };
  if (!started.ok) {
    const seconds = started.error.params?.seconds;
    return { ok: false, error: typeof seconds === "number" ? formatRateLimitedError(seconds) : "unavailable" };
  }
  const response = await startAuthentication({ optionsJSON: started.data }).catch(() => null);
  if (!response) return { ok: false, error: "passkeyCancelled" };
  return { ok: true, response: JSON.stringify(response) };
}
