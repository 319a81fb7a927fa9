import { z } from "zod";
import { can, type TPermission, type TPermissionHolder } from "@/lib/auth/permissions";
import { changeKindPermissions, resourceChangeKinds } from "@/lib/resources/registry";

// Only the identity travels: the page reads the resource again through its normal (authorized) path.
const ZChangeKind = z.enum([...resourceChangeKinds, "reconciliation", "alert_incident"]);
export type TChangeKind = z.infer<typeof ZChangeKind>;

export const ZChange = z.object({ kind: ZChangeKind, id: z.string().min(1).max(200) });
export type TChange = z.infer<typeof ZChange>;

const otherKindPermissions: Partial<Record<TChangeKind, TPermission>> = { alert_incident: "health.view" };

// A resource's ids reach those who may open its pages.
export function mayHearChange(listener: TPermissionHolder, change: TChange): boolean {
  const permission = changeKindPermissions[change.kind] ?? otherKindPermissions[change.kind];
  return !permission || can(listener, permission);
}
