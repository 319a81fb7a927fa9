import { exportRoute } from "@/lib/exports/route";

// GET /api/exports/card-payments – the card payments list (/payments) as CSV, with the page's URL filters (docs/exports.md).
export const GET = exportRoute("cardPayments");
