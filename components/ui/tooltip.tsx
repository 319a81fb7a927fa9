"use client";

import { Tooltip as TooltipPrimitive } from "radix-ui";

/** One provider is mounted in `app/providers.tsx`; tooltips open on hover and on keyboard focus. */
export const TooltipProvider = TooltipPrimitive.Provider;
