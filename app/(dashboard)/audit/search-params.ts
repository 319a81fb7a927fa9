import { createLoader, createSerializer } from "nuqs/server";

import { ZAuditFilters } from "@/lib/audit/schemas";
import { createListParsers } from "@/lib/list/search-params";

// /audit?action&actor&resourceType&resourceId&from&to&page&cursor, on the server and in the filter form.
export const auditSearchParams = createListParsers(ZAuditFilters.shape);
export const loadAuditSearchParams = createLoader(auditSearchParams);
export const serializeAuditSearchParams = createSerializer(auditSearchParams);
