import { z } from "zod";

export const ZRole = z.enum(["ADMIN", "STAFF"], { error: "invalidRole" });

const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { error: "invalidEmail" })
  .pipe(z.email({ error: "invalidEmail" }));

// Long rather than complex, as NIST SP 800-63B and OWASP advise; 128 bounds the hashing work.
const ZNewPassword = z.string().min(12, { error: "passwordTooShort" }).max(128, { error: "passwordTooLong" });

export const ZCreateUserInput = z.object({
  email: ZEmail,
  name: z.string().trim().min(1, { error: "nameRequired" }).max(100, { error: "nameTooLong" }),
  role: ZRole,
  // Only the shell command sets one; otherwise a one-time password is generated.
  password: ZNewPassword.optional(),
});
export type TCreateUserInput = z.input<typeof ZCreateUserInput>;

export const ZChangeOwnPasswordInput = z
  .object({
    currentPassword: z.string().min(1, { error: "currentPasswordRequired" }).max(128),
    newPassword: ZNewPassword,
  })
  .refine((input) => input.newPassword !== input.currentPassword, {
    path: ["newPassword"],
    error: "passwordUnchanged",
  });
export type TChangeOwnPasswordInput = z.input<typeof ZChangeOwnPasswordInput>;

export const ZUserId = z.uuid({ error: "invalidUser" });

const ZLinkToken = z.string().trim().min(1, { error: "invalidLink" }).max(100, { error: "invalidLink" });

export const ZSetPasswordWithLinkInput = z
  .object({ token: ZLinkToken, password: ZNewPassword, confirmPassword: z.string().max(128) })
  .refine((input) => input.password === input.confirmPassword, {
    path: ["confirmPassword"],
    error: "passwordMismatch",
  });

export const ZForgotPasswordInput = z.object({ email: ZEmail });
