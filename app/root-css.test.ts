import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, readModule, repositoryRoot, resolveImport, sourceFiles } from "@/lib/testing/source-imports";

// root.css scans only the files it names (`@source`): a component the payer's page or a root boundary starts to use
// must be named there too, or its classes would be missing from the page (the staff pages' globals.css has them all).
const entryFiles = [
  "app/layout.tsx",
  "app/not-found.tsx",
  "app/forbidden.tsx",
  "app/global-error.tsx",
  ...sourceFiles("app/(public)"),
].filter((file) => !file.endsWith(".test.ts"));

function reachableFiles(entries: string[]): Map<string, string> {
  const reached = new Map<string, string>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    const source = readFileSync(path.join(repositoryRoot, file), "utf8");
    reached.set(file, source);
    for (const { specifier, isTypeOnly } of importsOf(file, source)) {
      const target = isTypeOnly ? null : resolveImport(file, specifier);
      const module = target === null ? null : readModule(target);
      if (module && /\.tsx?$/.test(module.file)) pending.push(module.file);
    }
  }
  return reached;
}

function rootCssSources(): string[] {
  const css = readFileSync(path.join(repositoryRoot, "app/root.css"), "utf8");
  return [...css.matchAll(/^@source\s+"([^"]+)";/gm)].map((match) =>
    path.relative(repositoryRoot, path.resolve(repositoryRoot, "app", match[1]!)),
  );
}

const isCovered = (file: string, sources: string[]) =>
  sources.some((source) => file === source || file.startsWith(`${source}${path.sep}`));

describe("root.css", () => {
  it("names as a source every file with class names that the root layout's pages import", () => {
    const sources = rootCssSources();
    const withClasses = [...reachableFiles(entryFiles)]
      .filter(([file, source]) => /^(app|components)\//.test(file) && /classname|\bcva\(/i.test(source))
      .map(([file]) => file);
    expect(withClasses).toContain("components/ui/button.tsx");
    expect(withClasses.filter((file) => !isCovered(file, sources))).toEqual([]);
  });

  it("names only files that exist", () => {
    const missing = rootCssSources().filter((source) => !existsSync(path.join(repositoryRoot, source)));
    expect(missing).toEqual([]);
  });
});
