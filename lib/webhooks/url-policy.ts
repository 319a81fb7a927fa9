import { isHttpsRequired } from "@/lib/config/production-env";
import { AppError } from "@/lib/errors";

// Payment events carry amounts and payer data: a production server registers https receivers only.
export function assertWebhookUrlAllowed(url: string, env: Record<string, string | undefined> = process.env): void {
  if (isHttpsRequired(env) && !url.startsWith("https://")) {
    throw new AppError("VALIDATION_FAILED", "webhooks.errors.httpsRequired", {
      fieldErrors: { url: "httpsRequired" },
    });
  }
}
