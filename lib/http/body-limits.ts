// Request body caps in bytes, shared by route handlers, next.config.ts and nginx (docs/security.md). No server
// imports: next.config.ts loads this file.

export const bodyLimits = {
  webhookDelivery: 1024 * 1024,
  // POS device requests (docs/pos.md): a sale report is well under 4 KiB.
  pos: 16 * 1024,
  signIn: 16 * 1024,
  // Server actions: the largest form (a PEM key) is a few KiB; Next.js answers 413 past it.
  serverAction: 256 * 1024,
} as const;

// Next.js keeps a copy of the body for proxy.ts up to this size and silently truncates the rest: a little above the
// actions' cap so an oversized action gets 413, not a truncated body.
export const proxyBodyCopyLimit = bodyLimits.serverAction + 128 * 1024;

// The largest body any route accepts: nginx refuses anything above it (413) before it reaches an instance.
export const largestAcceptedBody = Math.max(...Object.values(bodyLimits), proxyBodyCopyLimit);
