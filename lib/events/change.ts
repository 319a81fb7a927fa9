import { z } from "zod";
import { adminOnlyChangeKinds, resourceChangeKinds } from "@/lib/resources/registry";

// Only the identity travels: the page reads the resource again through its normal (authorized) path.
const ZChangeKind = z.enum([...resourceChangeKinds, "reconciliation"]);
export type TChangeKind = z.infer<typeof ZChangeKind>;

export const ZChange = z.object({ kind: ZChangeKind, id: z.string().min(1).max(200) });
export type TChange = z.infer<typeof ZChange>;

// An admin-only resource's ids reach admins alone, as its pages do.
export function mayHearChange(role: "ADMIN" | "STAFF", change: TChange): boolean {
  return role === "ADMIN" || !adminOnlyChangeKinds.includes(change.kind);
}
