import { z } from "zod";
import { auditActions } from "./audit-actions";

export const auditPageSize = 50;

// Built from URL search params: every field falls back on its own, so a hand-edited or stale
// link shows the list with that filter dropped instead of an error page.
const ZOptionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional()
    .catch(undefined);

const ZOptionalDay = z.iso.date().optional().catch(undefined);

export const ZAuditFilters = z.object({
  action: z.enum(auditActions).optional().catch(undefined),
  actor: ZOptionalText(254),
  resourceType: ZOptionalText(50),
  resourceId: ZOptionalText(100),
  from: ZOptionalDay,
  to: ZOptionalDay,
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

export type TAuditFilters = z.infer<typeof ZAuditFilters>;
