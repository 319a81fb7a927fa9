export const bodyLimits = {
  webhookDelivery: 1024 * 1024,
  pos: 16 * 1024,
  signIn: 16 * 1024,
  serverAction: 256 * 1024,
} as const;

// Next.js silently truncates the body copy it keeps for proxy.ts past this: above the actions' cap, so those get 413.
export const proxyBodyCopyLimit = bodyLimits.serverAction + 128 * 1024;

export const largestAcceptedBody = Math.max(...Object.values(bodyLimits), proxyBodyCopyLimit);
