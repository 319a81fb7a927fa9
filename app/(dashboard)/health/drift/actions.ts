"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { healMirrorDrift, ZHealDriftInput } from "@/lib/reconcile/heal";
import { removeUnknownFromMirror, ZRemoveUnknownInput } from "@/lib/reconcile/remove-unknown";

// Applies the gateway's copy through the reconciler's own mirror write, then closes the item with who healed it.
export const healDriftAction = defineAction(
  { permission: "jobs.run", schema: ZHealDriftInput },
  async ({ id }, { context }) => {
    const closed = await healMirrorDrift(id, context);
    revalidatePath("/health/drift");
    return { closed };
  },
);

// Asks the gateway once more, then deletes the mirror's row it does not know and closes the item.
export const removeUnknownAction = defineAction(
  { permission: "jobs.run", schema: ZRemoveUnknownInput },
  async ({ id }, { context }) => {
    const closed = await removeUnknownFromMirror(id, context);
    revalidatePath("/health/drift");
    return { closed };
  },
);
