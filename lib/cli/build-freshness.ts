import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// What a production build is made from: when any of it is newer than `.next/BUILD_ID`, the demo builds again.
export const buildInputs = [
  "app",
  "components",
  "lib",
  "public",
  "next.config.ts",
  "package-lock.json",
  "prisma/schema.prisma",
];

export function newestChange(inputs: string[], root = process.cwd()): number {
  let newest = 0;
  const visit = (full: string) => {
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (!stat.isDirectory()) {
      newest = Math.max(newest, stat.mtimeMs);
      return;
    }
    for (const entry of readdirSync(full)) visit(path.join(full, entry));
  };
  for (const input of inputs) visit(path.join(root, input));
  return newest;
}

export function needsBuild(buildIdFile = ".next/BUILD_ID", root = process.cwd()): boolean {
  const buildId = path.join(root, buildIdFile);
  return !existsSync(buildId) || statSync(buildId).mtimeMs < newestChange(buildInputs, root);
}
