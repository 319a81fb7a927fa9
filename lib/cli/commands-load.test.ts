import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The worker and `npm run demo` run under tsx with the react-server condition, where React has no client APIs: a
// module they reach that loads a component library (an icon set, say) breaks them, and no page test would notice.
// Mail templates are imported lazily by the sender, so they are listed on their own.
const modulesTheCommandsLoad = [
  "lib/jobs/registry.ts",
  "lib/webhooks/subscriptions.ts",
  "lib/users/users.ts",
  "lib/mail/templates.ts",
];

describe("the product's commands", () => {
  it("load the modules they reach under the react-server condition", () => {
    const root = process.cwd();
    const entry = path.join(mkdtempSync(path.join(tmpdir(), "commands-load-")), "entry.mts");
    const imports = modulesTheCommandsLoad.map((file) => `await import(${JSON.stringify(path.join(root, file))});`);
    writeFileSync(entry, `${imports.join("\n")}\nconsole.log("loaded");\n`);
    const output = execFileSync(
      path.join(root, "node_modules/.bin/tsx"),
      ["--tsconfig", path.join(root, "tsconfig.json"), "--conditions=react-server", entry],
      { cwd: root, encoding: "utf8", env: { ...process.env, LOG_LEVEL: "silent" } },
    );
    expect(output.trim()).toBe("loaded");
  }, 60_000);
});
