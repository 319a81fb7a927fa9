import type { TStatusTone } from "@/components/status-badge";

export const matchTone: Record<"PENDING" | "MATCHED" | "MISSING_AT_GATEWAY" | "AMOUNT_MISMATCH", TStatusTone> = {
  PENDING: "neutral",
  MATCHED: "success",
  MISSING_AT_GATEWAY: "danger",
  AMOUNT_MISMATCH: "warning",
};
