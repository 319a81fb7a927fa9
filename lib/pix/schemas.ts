import { z } from "zod";
import { pixChargeStatuses } from "@/lib/gateway/schemas/pix-charge";
import { pixRefundStatusCodes } from "@/lib/gateway/schemas/pix-refund";
import { ZCursor, ZDay, ZOptionalDay, ZOptionalFilterText, ZOrder, ZPage, ZSort } from "@/lib/list/schemas";
import { isValidCpfOrCnpj, onlyDigits } from "@/lib/shared/cpf-cnpj";

// Error messages are `pix.errors` keys; the same schemas validate the forms in the browser.

// Immediate Pix charges use 26 to 35 letters and digits; reads accept any plain id up to 35.
export const ZTxid = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,35}$/, { error: "invalidTxid" });

// R$ 999.999.999,99: far above any Pix, far below where cents stop being exact.
const maxAmountCents = 99_999_999_999;

export const ZAmountCents = z
  .number({ error: "amountRequired" })
  .int({ error: "invalidAmount" })
  .min(1, { error: "amountTooSmall" })
  .max(maxAmountCents, { error: "amountTooLarge" });

export const ZOptionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, { error: tooLong })
    .transform((value) => value || undefined)
    .optional();

const ZCpfOrCnpj = z
  .string({ error: "documentRequired" })
  .trim()
  .min(1, { error: "documentRequired" })
  .refine(isValidCpfOrCnpj, { error: "invalidDocument" })
  .transform(onlyDigits);

export const pixExpirationLimits = { minSeconds: 60, maxSeconds: 30 * 24 * 3600, defaultSeconds: 3600 } as const;

export const ZCreatePixChargeInput = z.object({
  // Made once per form and reused on every retry of that form: the same key never creates two charges.
  idempotencyKey: z.uuid({ error: "invalidIdempotencyKey" }),
  amountCents: ZAmountCents,
  expirationSeconds: z
    .number({ error: "expirationRequired" })
    .int({ error: "invalidExpiration" })
    .min(pixExpirationLimits.minSeconds, { error: "expirationTooShort" })
    .max(pixExpirationLimits.maxSeconds, { error: "expirationTooLong" }),
  debtor: z
    .object({
      name: z
        .string({ error: "debtorNameRequired" })
        .trim()
        .min(1, { error: "debtorNameRequired" })
        .max(100, { error: "debtorNameTooLong" }),
      document: ZCpfOrCnpj,
    })
    .optional(),
  description: ZOptionalText(140, "descriptionTooLong"),
  userReference: ZOptionalText(100, "userReferenceTooLong"),
});
export type TCreatePixChargeInput = z.input<typeof ZCreatePixChargeInput>;
export type TCreatePixCharge = z.output<typeof ZCreatePixChargeInput>;

export const ZCancelPixChargeInput = z.object({ txid: ZTxid });

// `page` counts from 0, as the upstream list does; the caller loops while `page + 1 < totalPages`.
export const ZRefreshPixChargesPageInput = z
  .object({ from: ZDay, to: ZDay, page: z.number().int().min(0).max(10_000) })
  .refine((input) => input.from <= input.to, { path: ["to"], error: "periodReversed" });

export const ZRequestPixRefundInput = z.object({
  idempotencyKey: z.uuid({ error: "invalidIdempotencyKey" }),
  txid: ZTxid,
  amountCents: ZAmountCents,
  description: ZOptionalText(140, "descriptionTooLong"),
});
export type TRequestPixRefund = z.output<typeof ZRequestPixRefundInput>;

// The refund form: above the step-up threshold, `code` is the requester's current authenticator code.
export const ZSubmitPixRefundInput = ZRequestPixRefundInput.extend({
  code: z
    .string()
    .trim()
    .regex(/^\d{3} ?\d{3}$/, { error: "invalidCode" })
    .optional(),
});
export type TSubmitPixRefundInput = z.input<typeof ZSubmitPixRefundInput>;
export type TSubmitPixRefund = z.output<typeof ZSubmitPixRefundInput>;

export const ZRefundApprovalDecisionInput = z.object({ approvalId: z.uuid() });

// A refund id as the gateway gives it (a UUID in the sandbox; the spec only says "string").
export const ZRefreshPixRefundInput = z.object({ pixRefundId: z.string().trim().min(1).max(100) });

const pixChargeSortColumns = ["creationDate", "amount", "status", "expirationDate", "txid"] as const;

export const ZPixChargeFilters = z.object({
  from: ZOptionalDay,
  to: ZOptionalDay,
  // "paid": the period is the payment's date and only paid charges are listed (the overview links here).
  date: z.enum(["paid"]).optional().catch(undefined),
  status: z.enum(pixChargeStatuses).optional().catch(undefined),
  document: ZOptionalFilterText(18).transform((value) => (value ? onlyDigits(value) || undefined : undefined)),
  userReference: ZOptionalFilterText(100),
  txid: ZOptionalFilterText(35),
  sort: ZSort(pixChargeSortColumns),
  order: ZOrder,
  page: ZPage,
  cursor: ZCursor,
});
export type TPixChargeFilters = z.output<typeof ZPixChargeFilters>;

const pixRefundSortColumns = ["creationDate", "amount", "statusCode", "settlementDate"] as const;

const knownRefundStatusCodes = Object.values(pixRefundStatusCodes) as number[];

export const ZPixRefundFilters = z.object({
  // Optional here, as in the upstream refund list: no dates means every refund.
  from: ZOptionalDay,
  to: ZOptionalDay,
  txid: ZOptionalFilterText(35),
  statusCode: z.coerce
    .number()
    .int()
    .refine((code) => knownRefundStatusCodes.includes(code))
    .optional()
    .catch(undefined),
  sort: ZSort(pixRefundSortColumns),
  order: ZOrder,
  page: ZPage,
});
export type TPixRefundFilters = z.output<typeof ZPixRefundFilters>;
