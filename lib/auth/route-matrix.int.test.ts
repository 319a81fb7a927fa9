import { randomUUID } from "node:crypto";
import path from "node:path";
import { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serverEnv } from "@/lib/config/server-env";
import { closeChangeBus } from "@/lib/events/bus";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { discoverRouteHandlers, discoverServerActions } from "@/lib/testing/route-discovery";
import { connectPostgresTestDatabase } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";
import {
  actionMatrix,
  expectedOutcome,
  matrixIdentities,
  matrixSampleParams,
  routeMatrix,
  samplePath,
  type TAccess,
  type TMatrixIdentity,
} from "./route-matrix";
import { getSessionCookie } from "./session-cookie";

// Calls every server action and route handler on disk as anonymous and as a person holding only one permission, or
// all but one, for each permission of the catalog (a custom role each, a real user row and session cookie), and
// compares the first answer with lib/auth/route-matrix.ts. The real sandbox answers the reads of the sample ids a
// person gets past the guard with.

const jar = vi.hoisted(() => new Map<string, string>());

vi.mock("next/headers", () => {
  const store = {
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    getAll: () => [...jar].map(([name, value]) => ({ name, value })),
    has: (name: string) => jar.has(name),
    set: (name: string | { name: string; value: string }, value?: string) => {
      if (typeof name === "string") jar.set(name, value ?? "");
      else jar.set(name.name, name.value);
    },
    delete: (name: string) => jar.delete(name),
  };
  return {
    cookies: async () => store,
    headers: async () => new Headers({ "user-agent": "route-matrix", "x-forwarded-for": "203.0.113.77" }),
  };
});

const rootDir = path.resolve(import.meta.dirname, "../..");
const database = connectPostgresTestDatabase();
const sessionTokens = new Map<string, string>();
let sandbox: TSandbox | undefined;

// next-auth's handlers read next/headers through require(), which the mock above cannot reach:
// e2e/route-matrix.spec.ts checks them against a running server.
const checkedInE2eOnly = new Set(["GET /api/auth/[...nextauth]", "POST /api/auth/[...nextauth]"]);

// Accepted by no schema (not an object, not a locale), so a caller past the guards gets VALIDATION_FAILED.
const probe = "route-matrix-probe";
const sampleUuid = matrixSampleParams.uuid!;
function formData(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}
// The payer's actions take their form (the link in a hidden field); everyone else's take one input object.
const probeArguments: Record<string, () => unknown[]> = {
  verifyCodeAction: () => [{ status: "idle" }, formData({ linkPaymentUuid: sampleUuid, code: "x" })],
  payByCardAction: () => [{ status: "idle" }, formData({ linkPaymentUuid: sampleUuid })],
  startPixAction: () => [{ status: "idle" }, formData({ linkPaymentUuid: sampleUuid })],
};

type TProbeResult = { ok?: boolean; error?: { code?: string }; status?: unknown } | null;

function outcomeOf(value: unknown): string {
  const result = (typeof value === "object" ? value : null) as TProbeResult;
  if (result?.ok === false) return result.error?.code ?? "no error code";
  if (result?.ok === undefined && result?.status !== undefined) return String(result.status);
  return "ok";
}

function signInAs(identity: TMatrixIdentity) {
  jar.clear();
  const token = sessionTokens.get(identity.name);
  if (token) jar.set(getSessionCookie().name, token);
}

function sampleParams(routePath: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [, dots, name] of routePath.matchAll(/\[{1,2}(\.\.\.)?(\w+)\]{1,2}/g)) {
    const value = matrixSampleParams[name!]!;
    params[name!] = dots ? [value] : value;
  }
  return params;
}

// An endpoint open to everyone answers alike whatever the role: once anonymous and once signed in (the payer's code
// check would otherwise count every identity's attempt against one address).
function identitiesFor(access: TAccess<unknown> | undefined): TMatrixIdentity[] {
  return access && "anonymous" in access ? matrixIdentities.slice(0, 2) : matrixIdentities;
}

beforeAll(async () => {
  sandbox = await startGatewaySandbox();
  await database.reset();
  for (const identity of matrixIdentities) {
    if (!identity.permissions) continue;
    const role = await database.db.role.create({
      data: {
        id: randomUUID(),
        name: `Matrix ${matrixIdentities.indexOf(identity)}`,
        permissions: [...identity.permissions],
      },
    });
    const user = await database.db.user.create({
      data: { email: `matrix-${randomUUID()}@example.com`, name: role.name!, passwordHash: "x", roleId: role.id },
    });
    const token = { sub: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
    sessionTokens.set(identity.name, await encode({ token, secret: serverEnv.AUTH_SECRET }));
  }
}, 120_000);

afterAll(async () => {
  jar.clear();
  await closeChangeBus();
  await sandbox?.stop();
  await database.close();
});

describe("server actions × permissions", () => {
  const actions = discoverServerActions(rootDir);
  const cases = actions.flatMap((action) =>
    identitiesFor(actionMatrix[action.key]).map((identity) => ({ action, identity })),
  );

  it.each(cases)("$action.key as $identity.name", async ({ action, identity }) => {
    const access = actionMatrix[action.key];
    expect(access, `${action.key} has no row in lib/auth/route-matrix.ts`).toBeDefined();
    const module = (await import(path.join(rootDir, action.file))) as Record<string, (...args: unknown[]) => unknown>;
    signInAs(identity);
    const args = probeArguments[action.name]?.() ?? [probe];
    const outcome = await Promise.resolve(module[action.name]!(...args)).then(outcomeOf, (error: unknown) => {
      return `threw: ${error instanceof Error ? error.message : String(error)}`;
    });
    expect(outcome).toBe(expectedOutcome("action", access!, identity));
  });
});

describe("route handlers × permissions", () => {
  const routes = discoverRouteHandlers(rootDir).filter((route) => !checkedInE2eOnly.has(route.key));
  const cases = routes.flatMap((route) =>
    identitiesFor(routeMatrix[route.key]).map((identity) => ({ route, identity })),
  );

  it.each(cases)("$route.key as $identity.name", async ({ route, identity }) => {
    const access = routeMatrix[route.key];
    expect(access, `${route.key} has no row in lib/auth/route-matrix.ts`).toBeDefined();
    const module = (await import(path.join(rootDir, route.file))) as Record<
      string,
      (request: Request, context: { params: Promise<unknown> }) => Promise<Response>
    >;
    signInAs(identity);
    const hasBody = route.method !== "GET" && route.method !== "HEAD";
    const request = new NextRequest(new URL(samplePath(route.path), serverEnv.APP_URL), {
      method: route.method,
      headers: { "x-forwarded-for": "203.0.113.77", ...(hasBody ? { "content-type": "application/json" } : {}) },
      body: hasBody ? "{}" : undefined,
    });
    const response = await module[route.method]!(request, { params: Promise.resolve(sampleParams(route.path)) });
    await response.body?.cancel();
    expect(response.status).toBe(expectedOutcome("route", access!, identity));
  });
});
