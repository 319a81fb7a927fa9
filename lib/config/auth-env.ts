import { z } from "zod";
import { defineEnvConcern } from "./define-env";

export const authEnvConcern = defineEnvConcern("auth", {
  AUTH_SECRET: z
    .string()
    .min(32, "must be at least 32 characters")
    .describe("It signs and encrypts session tokens: generate one with `openssl rand -base64 32` and keep it secret."),
});
