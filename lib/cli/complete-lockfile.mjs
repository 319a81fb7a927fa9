// npm run lock:complete — after any `npm install` that changes dependencies.
// The registry this project is built against serves only the Linux builds of packages that
// ship per-platform binaries (@next/swc-*, @swc/core-*, @tailwindcss/oxide-*...). npm then
// leaves the other platforms' optional packages out of package-lock.json, and `npm ci`
// refuses the lock as out of sync. This adds each missing optional package with the version
// its parent asks for and the os/cpu its name declares, so npm ci skips it on Linux and a
// machine of that platform fetches it from its registry.
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const packages = lock.packages;

const platformOf = (name) => {
  const tail = name.split("/").pop();
  const os = [
    "darwin",
    "win32",
    "linux",
    "android",
    "freebsd",
    "openbsd",
    "sunos",
    "aix",
    "netbsd",
    "openharmony",
  ].find((candidate) => tail.includes(`-${candidate}-`) || tail.endsWith(`-${candidate}`));
  const cpu = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64", "wasm32", "mips64el"].find(
    (candidate) => new RegExp(`-${candidate}(-|$)`).test(tail),
  );
  return { os, cpu };
};

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === "" ? "" : `${location}/`;
    const candidates = [`${base}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((candidate) => packages[candidate])) continue;
    const { os, cpu } = platformOf(name);
    if (!os && !cpu) continue; // not a per-platform build: leave real resolution to npm
    packages[`node_modules/${name}`] = {
      version: spec.replace(/^[\^~=]/, ""),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform package(s) added`);
