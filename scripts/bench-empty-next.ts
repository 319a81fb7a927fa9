// The framework's own floor for `npm run bench:webhooks`: an empty Next.js app, built in the same run by this repo's
// `next`, whose one route handler reads its path parameter and the body and answers a little JSON. It is a dynamic
// route, as the receiver's is (/api/webhooks/gateway/[webhookId]): Next.js matches and clones route parameters for
// such a route on every request, which a static one skips. No dynamic route of any Next.js app, the receiver
// included, can answer faster on this machine than this one does. Its one page, a client form posting to a server
// action, is the floor of `npm run bench:pay-page`: what any App Router page with a form ships to the browser.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startService, type TService } from "@/lib/cli/processes";

export const emptyNextRoutePath = "/api/echo/6f1c2a9e-3b7d-4e58-9a40-2d8c5e7f1b34";
export const emptyNextFormPath = "/form";
// `npm run bench:pos`'s floor: a static route at the POS report's own path that reads the body and answers 202.
export const emptyNextPosPath = "/v1/transactions";

const files: Record<string, string> = {
  "package.json": JSON.stringify({ private: true }),
  // The repo's node_modules is linked in from outside this folder: Turbopack must be allowed to read it.
  "next.config.mjs": `export default { poweredByHeader: false, turbopack: { root: "/" } };\n`,
  "app/layout.js": `export default function RootLayout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`,
  "app/form/page.js": `import { Form } from "./form";
export const dynamic = "force-dynamic";
export default function Page() {
  return <main><h1>Form</h1><Form /></main>;
}
`,
  "app/form/actions.js": `"use server";
export async function send(_state, data) {
  return { message: \`got \${String(data.get("code") ?? "").length} characters\` };
}
`,
  "app/form/form.js": `"use client";
import { useActionState } from "react";
import { send } from "./actions";
export function Form() {
  const [state, action, isPending] = useActionState(send, { message: "" });
  return (
    <form action={action}>
      <label htmlFor="code">Code</label>
      <input id="code" name="code" required />
      <button type="submit" disabled={isPending}>Send</button>
      <p role="status">{state.message}</p>
    </form>
  );
}
`,
  "app/api/echo/[id]/route.js": `export async function POST(request, context) {
  const { id } = await context.params;
  const body = await request.text();
  return Response.json({ outcome: "ECHO", id, bytes: body.length });
}
`,
  "app/v1/transactions/route.js": `export async function POST(request) {
  JSON.parse(await request.text());
  return new Response(null, { status: 202, headers: { "cache-control": "no-store" } });
}
`,
};

export type TEmptyNextBuild = {
  /** `nodeOptions`: e.g. `--cpu-prof --cpu-prof-dir=…`, to profile the floor as the app is. */
  start: (port: number, nodeOptions?: string) => TService;
  remove: () => void;
};

// Built before the measured runs, so that its compile does not share the machine with them.
export async function buildEmptyNextApp(): Promise<TEmptyNextBuild> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-empty-next-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
    const nextBin = path.resolve("node_modules/.bin/next");
    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" as const };
    await promisify(execFile)(nextBin, ["build"], { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 });
    return {
      start: (port, nodeOptions) =>
        startService("empty-next", nextBin, ["start", "--hostname", "127.0.0.1", "--port", String(port)], {
          cwd: dir,
          env: { NEXT_TELEMETRY_DISABLED: "1", ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
        }),
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}
