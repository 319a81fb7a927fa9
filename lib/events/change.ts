import { z } from "zod";

// What the server tells browsers about: a resource of this kind changed. Only the identity
// travels; the page reads the resource again through its normal (authorized) path. The kinds
// other than webhook_delivery and reconciliation are the mirrored resources: a webhook event kind
// names the one it changes (`change` in lib/webhooks/event-kinds.ts).
export const changeKinds = ["pix_charge", "pix_refund", "payment_link", "webhook_delivery", "reconciliation"] as const;

export const ZChangeKind = z.enum(changeKinds);
export type TChangeKind = z.infer<typeof ZChangeKind>;

export const ZChange = z.object({ kind: ZChangeKind, id: z.string().min(1).max(200) });
export type TChange = z.infer<typeof ZChange>;
