import { z } from "zod";
import { resourceChangeKinds } from "@/lib/resources/registry";

// Only the identity travels: the page reads the resource again through its normal (authorized) path.
const ZChangeKind = z.enum([...resourceChangeKinds, "reconciliation"]);
export type TChangeKind = z.infer<typeof ZChangeKind>;

export const ZChange = z.object({ kind: ZChangeKind, id: z.string().min(1).max(200) });
export type TChange = z.infer<typeof ZChange>;
