import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { needsBuild, newestChange } from "./build-freshness";

let root: string;

function write(file: string, secondsAgo: number) {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, "x");
  const time = Date.now() / 1000 - secondsAgo;
  utimesSync(full, time, time);
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("build freshness", () => {
  it("skips inputs that do not exist (a clone without public/ starts the second time too)", () => {
    root = mkdtempSync(path.join(tmpdir(), "freshness-"));
    write("app/page.tsx", 100);
    write(".next/BUILD_ID", 10);
    expect(() => newestChange(["app", "public", "next.config.ts"], root)).not.toThrow();
    expect(needsBuild(".next/BUILD_ID", root)).toBe(false);
  });

  it("asks for a build when a source is newer than the build, or there is none", () => {
    root = mkdtempSync(path.join(tmpdir(), "freshness-"));
    write("lib/a/b.ts", 5);
    expect(needsBuild(".next/BUILD_ID", root)).toBe(true);
    write(".next/BUILD_ID", 50);
    expect(needsBuild(".next/BUILD_ID", root)).toBe(true);
  });
});
