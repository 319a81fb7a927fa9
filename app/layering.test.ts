import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Pages, actions and components call lib/<domain>; only the domains talk to lib/gateway. And a
// client component imports no module that starts with `import "server-only"` (types aside).
const root = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

// Every module specifier a file imports or re-exports, with whether the import is types only.
function importsOf(file: string): { specifier: string; isTypeOnly: boolean }[] {
  const source = readFileSync(path.join(root, file), "utf8");
  const pattern =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  return [...source.matchAll(pattern)].map((match) => ({
    specifier: match[3] ?? match[4]!,
    isTypeOnly: Boolean(match[2]),
  }));
}

// A repository path for "@/…" and relative specifiers; null for packages.
function resolve(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.relative(root, path.resolve(root, path.dirname(file), specifier));
  return null;
}

function readModule(target: string): string | null {
  for (const candidate of [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`, target]) {
    try {
      return readFileSync(path.join(root, candidate), "utf8");
    } catch {}
  }
  return null;
}

const files = [...sourceFiles("app"), ...sourceFiles("components")].filter((file) => !file.endsWith(".test.ts"));

describe("layering of app/ and components/", () => {
  it("finds the files it checks", () => {
    expect(files).toContain(path.join("app", "(dashboard)", "settings", "page.tsx"));
  });

  it("never imports lib/gateway", () => {
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter(({ specifier }) => resolve(file, specifier)?.split(path.sep).join("/").startsWith("lib/gateway"))
        .map(({ specifier }) => `${file} imports ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it("imports only pure modules into client components", () => {
    const clientFiles = files.filter((file) =>
      /^\s*["']use client["']/.test(readFileSync(path.join(root, file), "utf8")),
    );
    const offenders = clientFiles.flatMap((file) =>
      importsOf(file)
        .filter(({ isTypeOnly }) => !isTypeOnly)
        .filter(({ specifier }) => {
          const target = resolve(file, specifier);
          return target !== null && /^import ["']server-only["']/m.test(readModule(target) ?? "");
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
