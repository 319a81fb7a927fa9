"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { refreshPixRefundFromGateway } from "@/lib/pix/refunds";
import { ZRefreshPixRefundInput } from "@/lib/pix/schemas";

// Reads one refund from the gateway (GET /pix-refunds/{id}) into the mirror.
export const refreshPixRefundAction = defineAction(
  { permission: "payments.view", schema: ZRefreshPixRefundInput },
  async ({ pixRefundId }) => {
    const row = await refreshPixRefundFromGateway(pixRefundId);
    revalidatePath("/refunds");
    revalidatePath(`/pix/${row.txid}`);
    return { pixRefundId: row.pixRefundId, statusCode: row.statusCode, refundEndToEnd: row.refundEndToEnd };
  },
);
