import "server-only";
import { log } from "@/lib/log";
import { db } from "./client";

export async function isDatabaseHealthy(): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return true;
  } catch (error) {
    log.error({ err: error }, "health check: database unavailable");
    return false;
  }
}
