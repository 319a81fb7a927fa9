import { z } from "zod";

export const ZJobName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9-]+$/);

export const ZRunJobNowInput = z.object({ name: ZJobName });
export type TRunJobNowInput = z.infer<typeof ZRunJobNowInput>;
