"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { ZTerminalPaymentInput } from "@/lib/card-payments/schemas";
import { chargeFromTerminal } from "@/lib/card-payments/terminal";

// STAFF and ADMIN take card payments; only admins save cards or charge saved ones. The input carries the card only for this request: the answer never
// repeats it (a validation error names fields and message keys, not values).
export const chargeCardAction = defineAction({ schema: ZTerminalPaymentInput }, async (input, { user, context }) => {
  const isAdmin = user.role === "ADMIN";
  const result = await chargeFromTerminal(input, context, { canSaveCards: isAdmin, canChargeSavedCards: isAdmin });
  revalidatePath("/payments");
  if (result.cardToken) revalidatePath("/cards");
  return result;
});
