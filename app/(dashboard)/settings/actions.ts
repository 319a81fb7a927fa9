"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { checkGatewayConnection } from "@/lib/settings/gateway-connection";

// Admin only: a live authenticated GET to the gateway; answers OK with latency or what failed.
export const checkGatewayConnectionAction = defineAction({ schema: z.object({}), role: "ADMIN" }, () =>
  checkGatewayConnection(),
);
