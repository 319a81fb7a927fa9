import { exportRoute } from "@/lib/exports/route";

// GET /api/exports/links – the payment links list (/links) as CSV, with the page's URL filters (docs/exports.md).
export const GET = exportRoute("links");
