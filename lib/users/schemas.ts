import { z } from "zod";
import { knownPermissions, permissions, ZPermission } from "@/lib/auth/permissions";

export const ZRoleId = z.string().trim().min(1, { error: "invalidRole" }).max(64, { error: "invalidRole" });

// Cents; 0 is no limit.
export const ZRefundLimitCents = z
  .number()
  .int()
  .min(0, { error: "invalidAmount" })
  .max(2_000_000_000, { error: "invalidAmount" });

// A custom role: a name, what it may do (from the catalog) and how much its people may refund without approval.
export const ZRoleInput = z.object({
  name: z.string().trim().min(1, { error: "nameRequired" }).max(60, { error: "nameTooLong" }),
  description: z
    .string()
    .trim()
    .max(200, { error: "descriptionTooLong" })
    .transform((value) => value || null)
    .nullable()
    .default(null),
  permissions: z
    .array(ZPermission)
    .max(permissions.length)
    .transform((held) => knownPermissions(held)),
  refundLimitCents: ZRefundLimitCents,
});
export type TRoleInput = z.input<typeof ZRoleInput>;

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
  roleId: ZRoleId,
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
