import { z } from "zod";

// A job's name as the /jobs page sends it; lib/jobs/admin.ts checks it against the registry.
export const ZJobName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9-]+$/);

export const ZRunJobNowInput = z.object({ name: ZJobName });
export type TRunJobNowInput = z.infer<typeof ZRunJobNowInput>;
