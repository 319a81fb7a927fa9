import { z } from "zod";

const ZJobName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9-]+$/);

export const ZRunJobNowInput = z.object({ name: ZJobName });
