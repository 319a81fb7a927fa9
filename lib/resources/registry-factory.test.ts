import { describe, expect, it } from "vitest";
import { buildNavSections } from "@/app/(dashboard)/_components/nav-items";
import { exportListsOf, type TExportKind, type TExportList } from "@/lib/exports/registry";
import { overviewSourcesOf } from "@/lib/overview/rollup";
import { defineOverviewSource } from "@/lib/overview/sources";
import { defineReconcilePass, type TReconcileRun } from "@/lib/reconcile/pass";
import { reconcilePassesOf, reconcileWindow } from "@/lib/reconcile/reconcile";
import type { TSearchKindEntry } from "@/lib/search/define";
import { searchEntriesOf } from "@/lib/search/kinds";
import { defineResources, resourceDescriptors } from "./registry";
import { resourceRegistry, type TResourceEntry } from "./server-registry";

// A payment method that does not exist: one descriptor and one server entry, and every reader finds it.
const [boletoDescriptor] = defineResources([
  {
    key: "boleto",
    sort: "payment",
    labelKey: "nav.pix",
    permission: "payments.view",
    nav: { key: "boletos", href: "/boletos", section: "payments", position: 45 },
    badge: { messages: "boletos.status", tones: { PAID: "success" } },
    change: "boleto",
    exportKind: "boletos",
    searchKind: "boletos",
    isReconciled: true,
  },
]);

const boletoSearch: TSearchKindEntry = {
  permission: "payments.view",
  href: (id) => `/boletos/${id}`,
  find: async () => [],
};

const boletoExport: TExportList = {
  kind: "boletos" as TExportKind,
  path: "boletos",
  permission: "payments.view",
  fileName: "boletos",
  columnKeys: ["id"],
  readFilters: () => ({}),
  async *batches() {},
};

const upstreamPages = [
  { content: [{ id: "b1", status: "PAID" }], last: false },
  { content: [{ id: "b2", status: "OPEN" }], last: true },
];

const boletoPass = defineReconcilePass<{ id: string; status: string }>({
  list: async ({ page }) => upstreamPages[page] ?? { content: [], last: true },
  async heal(items, run) {
    for (const item of items)
      if (item.status === "PAID") run.healed.push({ kind: "pix_charge", id: item.id, from: null, to: item.status });
  },
});

// Its SQL is run against a database by lib/overview/rollup.int.test.ts, with a stand-in table.
const boletoOverview = defineOverviewSource({
  key: "boletoPaid",
  figures: ["boleto"],
  from: `"Boleto" b`,
  time: `b."paidAt"`,
  where: `b.status = 'PAID'`,
  select: `count(*) AS "boletoCount", sum(b."amountCents") AS "boletoCents"`,
});

const boleto: TResourceEntry = {
  descriptor: boletoDescriptor,
  export: boletoExport,
  search: boletoSearch,
  reconcile: boletoPass,
  overview: [boletoOverview],
};

const withBoleto = [...resourceRegistry, boleto];

const newRun = (): TReconcileRun => ({ scanned: {}, healed: [], errors: [], visited: new Set() });

describe("a resource kind registered once", () => {
  it("gets its nav item, placed by position", () => {
    const payments = buildNavSections([...resourceDescriptors, boletoDescriptor]).find(
      (section) => section.key === "payments",
    );
    const keys = payments?.items.map((item) => item.key);
    expect(keys).toContain("boletos");
    expect(keys?.indexOf("boletos")).toBe((keys?.indexOf("links") ?? 0) + 1);
  });

  it("is searched, after the registry's kinds and before customers", () => {
    const kinds = [...searchEntriesOf(withBoleto).keys()];
    expect(kinds.slice(-2)).toEqual(["boletos", "customers"]);
    expect(searchEntriesOf(withBoleto).get("boletos")).toBe(boletoSearch);
  });

  it("is exported by the one export route's map", () => {
    expect(exportListsOf(withBoleto).get("boletos")).toBe(boletoExport);
    expect([...exportListsOf(withBoleto).keys()].at(-1)).toBe("audit");
  });

  it("adds its figures to the overview, live and in the daily rollup", () => {
    const sources = overviewSourcesOf(withBoleto);
    expect(sources.at(-1)).toBe(boletoOverview);
    expect(sources.slice(0, -1)).toEqual(overviewSourcesOf(resourceRegistry));
  });

  it("is reconciled: its pass reads every page, counts under its change kind and heals", async () => {
    const passes = reconcilePassesOf(withBoleto);
    expect(passes.at(-1)).toEqual({ kind: "boleto", pass: boletoPass });
    const run = newRun();
    await reconcileWindow(passes.slice(-1), { from: new Date(0), to: new Date(1) }, run);
    expect(run.scanned).toEqual({ boleto: 2 });
    expect(run.healed).toEqual([{ kind: "pix_charge", id: "b1", from: null, to: "PAID" }]);
    expect(run.errors).toEqual([]);
  });

  it("fails alone: a pass whose list cannot be read leaves the next pass running", async () => {
    const broken = defineReconcilePass({
      list: async () => {
        throw new Error("gateway down");
      },
      heal: async () => {},
    });
    const run = newRun();
    await reconcileWindow(
      [
        { kind: "pix_charge", pass: broken },
        { kind: "boleto", pass: boletoPass },
      ],
      { from: new Date(0), to: new Date(1) },
      run,
    );
    expect(run.errors).toEqual(["pix_charge: gateway down"]);
    expect(run.scanned).toEqual({ pix_charge: 0, boleto: 2 });
  });
});
