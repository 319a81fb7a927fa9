import { z } from "zod";

// Only the identity travels: the page reads the resource again through its normal (authorized) path.
const changeKinds = [
  "pix_charge",
  "pix_refund",
  "payment_link",
  "card_payment",
  "card_token",
  "webhook_delivery",
  "reconciliation",
] as const;

const ZChangeKind = z.enum(changeKinds);
export type TChangeKind = z.infer<typeof ZChangeKind>;

export const ZChange = z.object({ kind: ZChangeKind, id: z.string().min(1).max(200) });
export type TChange = z.infer<typeof ZChange>;
