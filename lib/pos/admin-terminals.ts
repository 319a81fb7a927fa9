import "server-only";
import type { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { takeTransactionLock } from "@/lib/db/locks";
import { AppError } from "@/lib/errors";
import type { ZSavePosTenantTerminalsInput } from "./admin-schemas";

// Matching gives a tenant's reports only payments on its terminals or unclaimed ones, so a code has one tenant at most.

export async function getPosTenantTerminals(tenantId: string): Promise<string[]> {
  const rows = await db.posTenantTerminal.findMany({
    where: { tenantId },
    orderBy: { terminalId: "asc" },
    select: { terminalId: true },
  });
  return rows.map((row) => row.terminalId);
}

export async function savePosTenantTerminals(
  input: z.output<typeof ZSavePosTenantTerminalsInput>,
  context: TChangeContext,
): Promise<{ added: string[]; removed: string[] }> {
  const { tenantId, terminals } = input;
  return inTransaction(async (tx) => {
    // Saves take turns: two tenants claiming one free code at once would otherwise both pass the check below.
    await takeTransactionLock(tx, "pos-tenant-terminals");
    const key = await tx.posApiKey.findFirst({ where: { tenantId }, select: { id: true } });
    if (!key) throw new AppError("NOT_FOUND", "pos.errors.invalidTenant");

    const taken = await tx.posTenantTerminal.findMany({
      where: { terminalId: { in: terminals }, tenantId: { not: tenantId } },
      select: { terminalId: true },
    });
    if (taken.length > 0) {
      const takenCodes = new Set(taken.map((row) => row.terminalId));
      const fieldErrors = Object.fromEntries(
        terminals.flatMap((code, index) => (takenCodes.has(code) ? [[`terminals.${index}`, "terminalTaken"]] : [])),
      );
      throw new AppError("CONFLICT", "pos.errors.terminalTaken", {
        params: { codes: [...takenCodes].join(", ") },
        fieldErrors,
      });
    }

    const before = new Set(
      (await tx.posTenantTerminal.findMany({ where: { tenantId }, select: { terminalId: true } })).map(
        (row) => row.terminalId,
      ),
    );
    const wanted = new Set(terminals);
    const added = terminals.filter((code) => !before.has(code));
    const removed = [...before].filter((code) => !wanted.has(code)).sort();
    if (removed.length > 0) await tx.posTenantTerminal.deleteMany({ where: { tenantId, terminalId: { in: removed } } });
    if (added.length > 0)
      await tx.posTenantTerminal.createMany({
        data: added.map((terminalId) => ({ terminalId, tenantId, createdById: context.actor?.id ?? null })),
      });
    await recordAudit(
      {
        ...auditFieldsOf(context, "pos_tenant", tenantId),
        action: "pos_terminals.updated",
        metadata: { tenantId, added, removed },
      },
      tx,
    );
    return { added, removed };
  });
}
