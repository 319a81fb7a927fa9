import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, readModule, repositoryRoot, resolveImport, sourceFiles } from "@/lib/testing/source-imports";

// Pages, actions and components call lib/<domain>; only the domains talk to lib/gateway. And a
// client component imports no module that starts with `import "server-only"` (types aside).
const files = [...sourceFiles("app"), ...sourceFiles("components")].filter((file) => !file.endsWith(".test.ts"));

describe("layering of app/ and components/", () => {
  it("finds the files it checks", () => {
    expect(files).toContain(path.join("app", "(dashboard)", "settings", "page.tsx"));
  });

  it("never imports lib/gateway", () => {
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter(({ specifier }) => resolveImport(file, specifier)?.split(path.sep).join("/").startsWith("lib/gateway"))
        .map(({ specifier }) => `${file} imports ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it("imports only pure modules into client components", () => {
    const clientFiles = files.filter((file) =>
      /^\s*["']use client["']/.test(readFileSync(path.join(repositoryRoot, file), "utf8")),
    );
    const offenders = clientFiles.flatMap((file) =>
      importsOf(file)
        .filter(({ isTypeOnly }) => !isTypeOnly)
        .filter(({ specifier }) => {
          const target = resolveImport(file, specifier);
          return target !== null && /^import ["']server-only["']/m.test(readModule(target)?.source ?? "");
        })
        .map(({ specifier }) => `${file} imports ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });
});

// lucide-react's Icon and next/link are client components: imported by the payer's page or by the root not-found and
// forbidden boundaries (whose client code every page loads), they add to the pay page's scripts (docs/pay-page.md).
describe("client code of the pay page and the root boundaries", () => {
  const files = [
    ...sourceFiles("app/(public)/pay"),
    "app/not-found.tsx",
    "app/forbidden.tsx",
    "components/status-page.tsx",
    "components/ui/empty-state.tsx",
  ];

  it("imports no lucide-react or next/link", () => {
    const offending = files.flatMap((file) =>
      importsOf(file)
        .filter(({ specifier, isTypeOnly }) => !isTypeOnly && /^(lucide-react|next\/link)(\/|$)/.test(specifier))
        .map(({ specifier }) => `${file}: ${specifier}`),
    );
    expect(files.length).toBeGreaterThan(8);
    expect(offending).toEqual([]);
  });
});
