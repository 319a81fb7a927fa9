import "server-only";
import { auditList } from "@/lib/audit/audit-log";
import { resourceRegistry, type TResourceEntry } from "@/lib/resources/server-registry";
import { defineExportList, type TExportKind, type TExportList } from "./define";

export type { TExportKind, TExportList } from "./define";

const audit = defineExportList({
  kind: "audit",
  permission: "audit.view",
  fileName: "audit-log",
  list: auditList,
  findMany: (query, reader) => reader.auditLog.findMany(query),
  columns: [
    { key: "occurredAt", cell: (entry, format) => format.dateTime(entry.occurredAt) },
    { key: "actor", cell: (entry, format) => format.text(entry.actorEmail) },
    { key: "action", cell: (entry) => entry.action },
    { key: "resourceType", cell: (entry, format) => format.text(entry.resourceType) },
    { key: "resourceId", cell: (entry, format) => format.text(entry.resourceId) },
    { key: "ip", cell: (entry) => entry.ip ?? "" },
    { key: "details", cell: (entry, format) => format.text(entry.metadata ? JSON.stringify(entry.metadata) : "") },
  ],
});

export function exportListsOf(resources: readonly TResourceEntry[]): Map<string, TExportList> {
  const lists = resources.flatMap((resource) => (resource.export ? [resource.export] : []));
  return new Map([...lists, audit].map((list) => [list.kind, list]));
}

const exportListsByKind = exportListsOf(resourceRegistry);

export const exportKinds = [...exportListsByKind.keys()] as TExportKind[];

export const exportLists = Object.fromEntries(exportListsByKind) as Record<TExportKind, TExportList>;
