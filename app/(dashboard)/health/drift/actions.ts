"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { healMirrorDrift, ZHealDriftInput } from "@/lib/reconcile/heal";

// Applies the gateway's copy through the reconciler's own mirror write, then closes the item with who healed it.
export const healDriftAction = defineAction(
  { permission: "jobs.run", schema: ZHealDriftInput },
  async ({ id }, { context }) => {
    const healed = await healMirrorDrift(id, context);
    revalidatePath("/health/drift");
    return { healed };
  },
);
