import "server-only";
import { db } from "@/lib/db/client";

// A repeated body is stored once, on its first delivery; a reference reads it there (empty once retention deleted it).
export async function storedBodyOf(delivery: {
  rawBody: Uint8Array;
  duplicateOfId: string | null;
}): Promise<Uint8Array> {
  if (!delivery.duplicateOfId) return delivery.rawBody;
  const first = await db.webhookDelivery.findUnique({
    where: { id: delivery.duplicateOfId },
    select: { rawBody: true },
  });
  return first?.rawBody ?? delivery.rawBody;
}
