// Request body caps in bytes, in one place: the route handlers (lib/http/read-body.ts), next.config.ts (server
// actions, the proxy's copy of a page's body) and the cluster's nginx read the same numbers (docs/security.md,
// "Inputs"). Plain constants with no server imports: next.config.ts loads this file.

export const bodyLimits = {
  // The gateway's signed deliveries.
  webhookDelivery: 1024 * 1024,
  // POS device requests (docs/pos.md): a sale report is well under 4 KiB.
  pos: 16 * 1024,
  // next-auth's forms: CSRF token, email, password, code and callbackUrl.
  signIn: 16 * 1024,
  // Server actions: the largest form (a POS key's PEM public key, a webhook URL) is a few KiB; Next.js counts the
  // body while it streams and answers 413 past it.
  serverAction: 256 * 1024,
} as const;

// When proxy.ts runs (pages, and so server actions), Next.js keeps a copy of the body for it up to this size and
// silently cuts the rest off. A little above the actions' cap, so an oversized action still passes the cap and gets
// Next's 413 rather than a truncated body; the copy costs at most this much per request.
export const proxyBodyCopyLimit = bodyLimits.serverAction + 128 * 1024;

// The largest body any route accepts: nginx refuses anything above it (413) before it reaches an instance.
export const largestAcceptedBody = Math.max(...Object.values(bodyLimits), proxyBodyCopyLimit);
