import { exportRoute } from "@/lib/exports/route";

// GET /api/exports/<kind> – a list as CSV with its page's URL filters; the kinds (pix-charges, refunds, links,
// card-payments, webhook-deliveries, audit) and who may read each are in lib/exports/registry.ts (docs/exports.md).
export const GET = exportRoute;
