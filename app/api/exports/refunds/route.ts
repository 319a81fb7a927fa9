import { exportRoute } from "@/lib/exports/route";

// GET /api/exports/refunds – the Pix refunds list (/refunds) as CSV, with the page's URL filters (docs/exports.md).
export const GET = exportRoute("refunds");
