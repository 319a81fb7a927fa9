import { exportRoute } from "@/lib/exports/route";

// GET /api/exports/audit – the audit log (/audit; admins only) as CSV, with the page's URL filters (docs/exports.md).
export const GET = exportRoute("audit");
