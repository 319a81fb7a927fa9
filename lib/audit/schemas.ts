import { z } from "zod";
import { ZCursor, ZOptionalDay, ZOptionalFilterText, ZPage } from "@/lib/list/schemas";
import { auditActions } from "./audit-actions";

export const auditPageSize = 50;

export const ZAuditFilters = z.object({
  action: z.enum(auditActions).optional().catch(undefined),
  actor: ZOptionalFilterText(254),
  resourceType: ZOptionalFilterText(50),
  resourceId: ZOptionalFilterText(100),
  from: ZOptionalDay,
  to: ZOptionalDay,
  page: ZPage,
  cursor: ZCursor,
});

export type TAuditFilters = z.infer<typeof ZAuditFilters>;
