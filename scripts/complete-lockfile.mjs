// npm run lock:complete — after any `npm install` that changes dependencies. Our registry serves only the Linux
// builds of per-platform packages (@next/swc-*, @swc/core-*...), so npm leaves the other platforms' optional
// packages out of the lock and `npm ci` refuses it. This adds each with its parent's version and its os/cpu.
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
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
