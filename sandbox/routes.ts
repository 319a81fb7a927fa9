import { registerCardRoutes } from "./cards/routes";
import { registerControlRoutes } from "./control/routes";
import type { Router } from "./http/router";
import { registerLinkRoutes } from "./links/routes";
import { registerPixRoutes } from "./pix/routes";
import { registerWebhookRoutes } from "./webhooks/routes";

/** Every endpoint of the sandbox: the gateway API under /api/v1 and the control API under /sandbox/v1. */
export function registerRoutes(router: Router): void {
  registerPixRoutes(router);
  registerWebhookRoutes(router);
  registerCardRoutes(router);
  registerLinkRoutes(router);
  registerControlRoutes(router);
}
