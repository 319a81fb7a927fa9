import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { navSections } from "@/app/(dashboard)/_components/nav-items";
import { statusMessageKey } from "@/components/resource-status-badge";
import { permissionsOfRole } from "@/lib/auth/roles";
import { ZChange } from "@/lib/events/change";
import { exportKinds, exportLists } from "@/lib/exports/registry";
import en from "@/lib/i18n/messages/en.json";
import ptBR from "@/lib/i18n/messages/pt-BR.json";
import { overviewFigureNames } from "@/lib/overview/overview";
import { overviewChangeKinds, overviewSources } from "@/lib/overview/rollup";
import { reconcilePassesOf } from "@/lib/reconcile/reconcile";
import { searchKindRegistry } from "@/lib/search/kinds";
import { searchKinds } from "@/lib/search/types";
import { allEventKinds } from "@/lib/webhooks/event-kinds";
import { webhookEvents } from "@/lib/webhooks/event-names";
import { ownWebhookEvents } from "@/lib/webhooks/subscriptions";
import { resourceDescriptors, type TResourceDescriptor } from "./registry";
import { resourceRegistry, type TResourceEntry } from "./server-registry";

type TPart = "nav" | "change" | "export" | "search" | "reconcile" | "overview";

// What a resource of each sort must have; the registry's optional parts are optional only for the other sorts.
const requiredParts: Record<TResourceDescriptor["sort"], TPart[]> = {
  payment: ["nav", "change", "export", "search", "reconcile", "overview"],
  vaulted: ["nav", "change", "search"],
  terminal: ["nav", "change"],
  received: ["nav", "change", "export"],
};

function hasPart(entry: TResourceEntry, part: TPart): boolean {
  const { descriptor } = entry;
  switch (part) {
    case "nav":
      return navSections.some((section) => section.items.some((item) => item.href === descriptor.nav.href));
    case "change":
      return descriptor.change !== undefined && ZChange.safeParse({ kind: descriptor.change, id: "x" }).success;
    case "export":
      return entry.export !== undefined && entry.export.kind === descriptor.exportKind;
    case "search":
      if (descriptor.searchedThrough)
        return resourceRegistry.some((other) => other.descriptor.key === descriptor.searchedThrough && other.search);
      return entry.search !== undefined && descriptor.searchKind !== undefined;
    case "reconcile":
      return entry.reconcile !== undefined && descriptor.isReconciled === true;
    case "overview":
      return (entry.overview?.length ?? 0) > 0;
  }
}

function messageAt(catalog: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalog);
}

describe("the resource registry", () => {
  it.each(resourceRegistry.map((entry) => [entry.descriptor.key, entry] as const))(
    "%s has every part its sort needs",
    (_key, entry) => {
      for (const part of requiredParts[entry.descriptor.sort]) expect(hasPart(entry, part), part).toBe(true);
    },
  );

  it("declares in the descriptor exactly the server parts an entry has", () => {
    for (const { descriptor, ...server } of resourceRegistry) {
      expect(descriptor.exportKind !== undefined, descriptor.key).toBe(server.export !== undefined);
      expect(descriptor.searchKind !== undefined, descriptor.key).toBe(server.search !== undefined);
      expect(descriptor.isReconciled === true, descriptor.key).toBe(server.reconcile !== undefined);
      if (descriptor.isReconciled) expect(descriptor.change, descriptor.key).toBeDefined();
    }
  });

  it("asks one permission for a resource in the nav, the search palette and the export route alike", () => {
    const operations = permissionsOfRole("operations", null);
    for (const { descriptor, ...server } of resourceRegistry) {
      // The admin section holds what Operations (the old STAFF) may not open.
      expect(descriptor.nav.section === "admin", descriptor.key).toBe(!operations.includes(descriptor.permission));
      if (server.search) expect(server.search.permission, descriptor.key).toBe(descriptor.permission);
      if (server.export) expect(server.export.permission, descriptor.key).toBe(descriptor.permission);
    }
  });

  it("has unique keys, links, change kinds, and labels in both catalogs", () => {
    const unique = (values: unknown[]) => expect(new Set(values).size).toBe(values.length);
    unique(resourceDescriptors.map((descriptor) => descriptor.key));
    unique(resourceDescriptors.map((descriptor) => descriptor.nav.href));
    unique(resourceDescriptors.flatMap((descriptor) => ("change" in descriptor ? [descriptor.change] : [])));
    for (const descriptor of resourceDescriptors) {
      expect(typeof messageAt(en, descriptor.labelKey), descriptor.labelKey).toBe("string");
      expect(typeof messageAt(ptBR, descriptor.labelKey), descriptor.labelKey).toBe("string");
      if ("isReconciled" in descriptor) {
        const countKey = `reconciliation.scannedKinds.${descriptor.change}`;
        expect(typeof messageAt(en, countKey), countKey).toBe("string");
        expect(typeof messageAt(ptBR, countKey), countKey).toBe("string");
      }
    }
  });

  it("colours every status its catalogs name, and names every status it colours, in both catalogs", () => {
    for (const { key, badge } of resourceDescriptors) {
      const coloured = Object.keys(badge.tones).map(statusMessageKey).sort();
      for (const catalog of [en, ptBR]) {
        const named = messageAt(catalog, badge.messages);
        expect(typeof named, `${key}: ${badge.messages}`).toBe("object");
        expect(Object.keys(named as object).sort(), key).toEqual(coloured);
      }
    }
  });

  it("is what search, exports and reconciliation serve, in registry order", () => {
    expect(searchKinds).toEqual(["pixCharges", "paymentLinks", "cardPayments", "savedCards", "customers"]);
    for (const kind of searchKinds) expect(searchKindRegistry[kind], kind).toBeDefined();
    expect(exportKinds).toEqual(["pixCharges", "refunds", "links", "cardPayments", "webhookDeliveries", "audit"]);
    for (const kind of exportKinds) expect(exportLists[kind].kind).toBe(kind);
    // Charges before refunds: a refund's heal reads its charge once, and the charge pass has already read it.
    expect(reconcilePassesOf(resourceRegistry).map((pass) => pass.kind)).toEqual([
      "pix_charge",
      "pix_refund",
      "payment_link",
      "card_payment",
    ]);
  });
});

describe("the overview's figures from the resource registry", () => {
  it("come from sources with unique names, each figure selected by its source", () => {
    const unique = (values: unknown[]) => expect(new Set(values).size).toBe(values.length);
    unique(overviewSources.map((source) => source.key));
    const names = overviewSources.flatMap((source) => source.figures);
    unique(names);
    for (const source of overviewSources) {
      for (const name of source.figures) {
        expect(source.select, `${source.key}: ${name}`).toContain(`"${name}Count"`);
        expect(source.select, `${source.key}: ${name}`).toContain(`"${name}Cents"`);
      }
      if (source.received) expect(source.figures).toContain(source.received.figure);
      if (source.returned) expect(source.figures).toContain(source.returned);
    }
  });

  it("are what the open overview listens to: every resource that adds figures, nothing else", () => {
    expect(overviewChangeKinds).toEqual(["pix_charge", "pix_refund", "payment_link", "card_payment"]);
  });

  it("provide every figure the overview reads by name", () => {
    const names = overviewSources.flatMap((source) => source.figures);
    for (const name of overviewFigureNames) expect(names).toContain(name);
  });
});

describe("webhook event kinds against the resource registry", () => {
  it("announce only reconciled payment resources", () => {
    const reconciled = resourceRegistry.filter((entry) => entry.descriptor.sort === "payment" && entry.reconcile);
    for (const kind of allEventKinds)
      expect(
        reconciled.map((entry) => entry.descriptor.change),
        kind.event,
      ).toContain(kind.change);
  });

  it("subscribe the app's own receiver to every registered event", () => {
    expect([...ownWebhookEvents].sort()).toEqual([...webhookEvents].sort());
  });

  it("says which resources have a page per row, as app/(dashboard) has them", () => {
    const dashboard = path.join(process.cwd(), "app/(dashboard)");
    const hasRowPage = (href: string) => {
      // A list page may sit in a route group, e.g. payments/(list), beside its [id] page.
      const folder = path.join(dashboard, href);
      return (
        existsSync(folder) &&
        readdirSync(folder).some((name) => /^\[\w+\]$/.test(name) && existsSync(path.join(folder, name, "page.tsx")))
      );
    };
    for (const descriptor of resourceDescriptors)
      expect({ key: descriptor.key, hasDetailPage: "hasDetailPage" in descriptor }).toEqual({
        key: descriptor.key,
        hasDetailPage: hasRowPage(descriptor.nav.href),
      });
  });
});
