import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// Static reading of the repository's imports, for tests that check what a file may reach.
export const repositoryRoot = path.resolve(import.meta.dirname, "../..");

export function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repositoryRoot, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(repositoryRoot, path.join(entry.parentPath, entry.name)));
}

// Every module specifier a file imports or re-exports, with whether the import is types only.
export function importsOf(
  file: string,
  source = readFileSync(path.join(repositoryRoot, file), "utf8"),
): { specifier: string; isTypeOnly: boolean }[] {
  const pattern =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  return [...source.matchAll(pattern)].map((match) => ({
    specifier: match[3] ?? match[4]!,
    isTypeOnly: Boolean(match[2]),
  }));
}

export function resolveImport(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith("."))
    return path.relative(repositoryRoot, path.resolve(repositoryRoot, path.dirname(file), specifier));
  return null;
}

export function readModule(target: string): { file: string; source: string } | null {
  for (const candidate of [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`, target]) {
    try {
      return { file: candidate, source: readFileSync(path.join(repositoryRoot, candidate), "utf8") };
    } catch {}
  }
  return null;
}
