"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { AppError } from "@/lib/errors";
import { readScanned, runManualReconciliation } from "@/lib/reconcile/reconcile";

// The panel re-renders through the live "reconciliation" change, so nothing is revalidated here.
export const runReconciliationAction = defineAction(
  { permission: "jobs.run", schema: z.object({}) },
  async (_input, { context }) => {
    const result = await runManualReconciliation(context);
    if (result.status === "skipped") throw new AppError("CONFLICT", "reconciliation.errors.reconcileRunning");
    const { run } = result;
    return {
      id: run.id,
      status: run.status,
      healedCount: run.healedCount,
      scanned: readScanned(run),
    };
  },
);
