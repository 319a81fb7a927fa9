import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The SDK ships to devices and other apps: its import graph (from index.ts) may reach only its own files and zod.
const sdkDir = path.dirname(fileURLToPath(import.meta.url));
const allowedPackages = new Set(["zod"]);

function importsOf(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']/g)].map((m) => m[1]!);
  const bare = [...source.matchAll(/(?:import\s*\(|import\s|require\s*\()\s*["']([^"']+)["']/g)].map((m) => m[1]!);
  return [...specifiers, ...bare];
}

function resolveLocal(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  return base.endsWith(".ts") ? base : `${base}.ts`;
}

it("index.ts reaches only the SDK's own modules and zod (no Next.js, no server modules, no node:)", () => {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [path.join(sdkDir, "index.ts")];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith(".")) {
        const target = resolveLocal(file, specifier);
        expect(path.relative(sdkDir, target).startsWith(".."), `${file} imports ${specifier}`).toBe(false);
        queue.push(target);
      } else packages.add(specifier);
    }
  }
  expect([...packages].filter((name) => !allowedPackages.has(name))).toEqual([]);
  expect([...seen].map((file) => path.relative(sdkDir, file)).sort()).toContain("client.ts");
  for (const file of seen) expect(readFileSync(file, "utf8")).not.toMatch(/server-only|from "@\//);
});
