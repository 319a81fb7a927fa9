import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareWithMatrix, discoverEntries, discoverPages } from "@/lib/testing/route-discovery";
import { actionMatrix, pageMatrix, routeMatrix, samplePath } from "./route-matrix";

const rootDir = path.resolve(import.meta.dirname, "../..");
const tables = { pages: pageMatrix, routes: routeMatrix, actions: actionMatrix };

describe("route × role matrix", () => {
  const entries = discoverEntries(rootDir);

  it("has a row for every page, route handler and server action on disk, and none for anything else", () => {
    expect(compareWithMatrix(entries, tables)).toEqual({ unlisted: [], stale: [] });
  });

  it("finds the app's endpoints of each kind", () => {
    const keys = entries.map((entry) => `${entry.kind} ${entry.key}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        "page /",
        "page /pix/[txid]",
        "page /pay/[uuid]",
        "route GET /api/users",
        "route GET /api/auth/[...nextauth]",
        "route POST /api/auth/[...nextauth]",
        "action app/(dashboard)/users/actions.ts#createUserAction",
        "action lib/i18n/actions.ts#setLocaleAction",
      ]),
    );
  });

  // A streamed page has sent 200 before it could answer 403 (lib/auth/permission-layout.tsx).
  it("refuses above every loading boundary, with the permission of the pages below it", () => {
    const loadingDirs = readdirSync(path.join(rootDir, "app"), { recursive: true, encoding: "utf8" })
      .filter((file) => path.basename(file) === "loading.tsx")
      .map((file) => path.join("app", path.dirname(file)));
    expect(loadingDirs.length).toBeGreaterThan(0);
    for (const dir of loadingDirs) {
      const layout = readFileSync(path.join(rootDir, dir, "layout.tsx"), "utf8");
      const guarded = layout.match(/<PermissionGate permission="([\w.]+)">/)?.[1];
      const pagesBelow = discoverPages(rootDir).filter((page) => page.file.startsWith(`${dir}/`));
      expect(pagesBelow.length, dir).toBeGreaterThan(0);
      for (const page of pagesBelow) {
        const access = pageMatrix[page.key]!;
        expect("permission" in access ? access.permission : null, `${dir}/layout.tsx for ${page.key}`).toBe(guarded);
      }
    }
  });

  it("has a sample value for every dynamic segment", () => {
    for (const entry of entries) if (entry.kind !== "action") expect(samplePath(entry.path)).not.toMatch(/[[\]]/);
  });

  describe("with a new page, route handler and action that have no row", () => {
    const fixtureDir = mkdtempSync(path.join(tmpdir(), "route-matrix-"));
    afterAll(() => rmSync(fixtureDir, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(fixtureDir, file)), { recursive: true });
      writeFileSync(path.join(fixtureDir, file), text);
    };

    it("lists each of them as unlisted and ignores what is not an endpoint", () => {
      write("app/(dashboard)/pix/page.tsx", "export default function Page() { return null; }\n");
      write("app/(dashboard)/reports/[id]/page.tsx", "export default function Page() { return null; }\n");
      write("app/(dashboard)/reports/_components/page.tsx", "export default function Page() { return null; }\n");
      write(
        "app/api/reports/route.ts",
        "function handler() { return new Response(); }\nexport const dynamic = 'force-dynamic';\n" +
          "export { handler as GET, handler as DELETE };\n",
      );
      write(
        "app/(dashboard)/reports/actions.ts",
        "'use server';\nexport type TShape = { a: 1 };\nexport async function exportReportAction() {}\n" +
          "export const purgeReportsAction = async () => {};\n",
      );
      write("lib/reports/actions.ts", "export async function notAnAction() {}\n");

      const { unlisted } = compareWithMatrix(discoverEntries(fixtureDir), tables);
      expect(unlisted).toEqual([
        "page /reports/[id] (app/(dashboard)/reports/[id]/page.tsx)",
        "route GET /api/reports (app/api/reports/route.ts)",
        "route DELETE /api/reports (app/api/reports/route.ts)",
        "action app/(dashboard)/reports/actions.ts#exportReportAction (app/(dashboard)/reports/actions.ts)",
        "action app/(dashboard)/reports/actions.ts#purgeReportsAction (app/(dashboard)/reports/actions.ts)",
      ]);
    });

    it("refuses an inline server action, which no export names", () => {
      write(
        "app/(dashboard)/inline/page.tsx",
        'export default function Page() {\n  async function save() {\n    "use server";\n  }\n  return save;\n}\n',
      );
      expect(() => discoverEntries(fixtureDir)).toThrow(/inline "use server"/);
    });
  });
});
