// Tests only: the payment-trace files' next/headers, whose cookies are this jar; each file passes its own address.
export const cookieJar = new Map<string, string>();

export function nextHeadersMock(clientAddress: string) {
  return {
    cookies: async () => ({
      get: (name: string) => (cookieJar.has(name) ? { name, value: cookieJar.get(name)! } : undefined),
      getAll: () => [...cookieJar].map(([name, value]) => ({ name, value })),
      has: (name: string) => cookieJar.has(name),
      set: () => {},
      delete: () => {},
    }),
    headers: async () => new Headers({ "user-agent": "payment-trace", "x-forwarded-for": clientAddress }),
  };
}

export const nextCacheMock = { revalidatePath: () => {} };
