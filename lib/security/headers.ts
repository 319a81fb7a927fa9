// Pure (no Next.js or server imports): proxy.ts, next.config.ts, the unit tests and the pay page's check share it.

export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

type TPolicyOptions = { nonce: string; isHttps: boolean; isDevelopment: boolean };

// No 'strict-dynamic': a nonced script cannot pull code from another origin. Inline styles: React renders style
// attributes (Radix positioning) a nonce cannot cover, and CSS cannot run code.
export function buildContentSecurityPolicy({ nonce, isHttps, isDevelopment }: TPolicyOptions): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
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

// Only over https: a header received over http is ignored and would mislead whoever reads it.
const strictTransportSecurity = "max-age=63072000; includeSubDomains";

// The pay page's URL is the payer's access to the link, never a referrer. Not `no-referrer`: with it, a form posted
// without JavaScript sends `Origin: null`, which Next's origin check on server actions refuses.
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

export const staticAssetHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
];

// Data routes skip proxy.ts: nothing they answer renders, each checks its own session or key. No HSTS: pages teach it.
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
