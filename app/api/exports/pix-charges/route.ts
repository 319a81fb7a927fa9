import { exportRoute } from "@/lib/exports/route";

// GET /api/exports/pix-charges – the Pix charges list (/pix) as CSV, with the page's URL filters (docs/exports.md).
export const GET = exportRoute("pixCharges");
