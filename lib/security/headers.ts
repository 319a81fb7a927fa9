// Security headers of every response, set by proxy.ts (next.config.ts for build assets and machine routes). Pure: no Next.js or server imports, so the
// proxy, the unit tests and the pay page's integrity check read the same policy.

// 16 random bytes: unguessable, and fresh on every request (a reused nonce authorizes nothing new).
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

type TPolicyOptions = { nonce: string; isHttps: boolean; isDevelopment: boolean };

// Scripts: our origin and this response's nonce only (no 'strict-dynamic', so a nonced script cannot
// pull code from another origin). Styles allow inline: React renders style attributes (Radix
// positioning), which a nonce cannot cover, and CSS cannot run code.
export function buildContentSecurityPolicy({ nonce, isHttps, isDevelopment }: TPolicyOptions): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // The development server evaluates modules for fast refresh and error overlays.
    "script-src": ["'self'", `'nonce-${nonce}'`, ...(isDevelopment ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "media-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  const policy = Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`);
  if (isHttps) policy.push("upgrade-insecure-requests");
  return policy.join("; ");
}

// Features no page uses; the payer's page least of all should reach the camera or payment handlers.
const permissionsPolicy = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "hid=()",
  "bluetooth=()",
  "display-capture=()",
  "browsing-topics=()",
].join(", ");

// Two years with subdomains: the browser then refuses plain http for this host. Only over https, as a
// header received over http is ignored and would mislead whoever reads it.
const strictTransportSecurity = "max-age=63072000; includeSubDomains";

// The pay page's URL is the payer's access to the link: it never leaves as a referrer. `same-origin` rather than
// `no-referrer`: under `no-referrer` a browser posting a form without JavaScript sends `Origin: null`, which
// Next's origin check on server actions (rightly) refuses.
function referrerPolicyFor(pathname: string): string {
  return pathname.startsWith("/pay/") ? "same-origin" : "strict-origin-when-cross-origin";
}

export function buildSecurityHeaders(options: TPolicyOptions & { pathname: string }): Record<string, string> {
  return {
    "Content-Security-Policy": buildContentSecurityPolicy(options),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": referrerPolicyFor(options.pathname),
    "Permissions-Policy": permissionsPolicy,
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(options.isHttps ? { "Strict-Transport-Security": strictTransportSecurity } : {}),
  };
}

// Hashed build assets under /_next/static are served without the proxy: their headers come from
// next.config.ts. A CSP has no meaning on a script file, the rest does.
export const staticAssetHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
];

// Routes that answer data, not pages: the browser's JSON and CSV routes under /api (the gateway's webhook deliveries
// among them) and the POS backend under /v1. Nothing they answer is rendered or runs scripts, so they skip proxy.ts
// (a nonce, a policy and a request copy per call, for nothing; each route checks its own session or key) and get
// these fixed headers from next.config.ts. Nothing of theirs may be framed, run or embedded. No HSTS: it binds
// browsers only, which learn it from any page of the host.
export const apiRoutePrefixes = ["/api/", "/v1/"];

export const apiRouteHeaders = [
  {
    key: "Content-Security-Policy",
    value: "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: permissionsPolicy },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];
