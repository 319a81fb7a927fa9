"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { ZRefreshCardPaymentsPageInput } from "@/lib/card-payments/schemas";
import { refreshCardPaymentsPage } from "@/lib/card-payments/sync";

// One upstream page per call, so the page can show progress ("page 2 of 5") and loop until `isDone`.
export const refreshCardPaymentsPageAction = defineAction(
  { permission: "payments.view", schema: ZRefreshCardPaymentsPageInput },
  async (input) => {
    const result = await refreshCardPaymentsPage(input);
    if (result.isDone) revalidatePath("/payments");
    return result;
  },
);
