"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { can } from "@/lib/auth/permissions";
import { ZTerminalPaymentInput } from "@/lib/card-payments/schemas";
import { chargeFromTerminal } from "@/lib/card-payments/terminal";

// Saving a card, or charging a saved one, also needs savedCards.manage. The input carries the card only for this request: the answer never
// repeats it (a validation error names fields and message keys, not values).
export const chargeCardAction = defineAction(
  { permission: "cards.charge", schema: ZTerminalPaymentInput },
  async (input, { user, context }) => {
    const managesSavedCards = can(user, "savedCards.manage");
    const result = await chargeFromTerminal(input, context, {
      canSaveCards: managesSavedCards,
      canChargeSavedCards: managesSavedCards,
    });
    revalidatePath("/payments");
    if (result.cardToken) revalidatePath("/cards");
    return result;
  },
);
