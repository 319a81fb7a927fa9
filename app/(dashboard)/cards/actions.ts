"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { addCardToken, lookUpCardToken, refreshCardTokensPage, setCardTokenStatus } from "@/lib/saved-cards/cards";
import {
  ZAddCardInput,
  ZLookUpCardTokenInput,
  ZRefreshCardTokensPageInput,
  ZSetCardTokenStatusInput,
} from "@/lib/saved-cards/schemas";

// Saved cards are an admin area: every action checks the role itself (defineAction's `role`).

// The card number is in this input only: it goes to the gateway and is never stored, logged or sent back.
export const addCardTokenAction = defineAction(
  { permission: "savedCards.manage", schema: ZAddCardInput },
  async (input, { context }) => {
    const result = await addCardToken(input, context);
    revalidatePath("/cards");
    return result;
  },
);

export const enableCardTokenAction = defineAction(
  { permission: "savedCards.manage", schema: ZSetCardTokenStatusInput },
  async ({ token }, { context }) => {
    const result = await setCardTokenStatus(token, "ATV", context);
    revalidatePath("/cards");
    return result;
  },
);

export const disableCardTokenAction = defineAction(
  { permission: "savedCards.manage", schema: ZSetCardTokenStatusInput },
  async ({ token }, { context }) => {
    const result = await setCardTokenStatus(token, "INA", context);
    revalidatePath("/cards");
    return result;
  },
);

export const lookUpCardTokenAction = defineAction(
  { permission: "savedCards.manage", schema: ZLookUpCardTokenInput },
  async ({ query }) => {
    const result = await lookUpCardToken(query);
    revalidatePath("/cards");
    return result;
  },
);

// One upstream page per call, so the page can show progress ("page 2 of 5") and loop.
export const refreshCardTokensPageAction = defineAction(
  { permission: "savedCards.manage", schema: ZRefreshCardTokensPageInput },
  async (input) => {
    const result = await refreshCardTokensPage(input);
    if (result.page + 1 >= result.totalPages) revalidatePath("/cards");
    return result;
  },
);
