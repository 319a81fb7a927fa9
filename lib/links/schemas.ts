import { z } from "zod";
import { ZDay, ZOptionalDay, ZOptionalFilterText, ZOrder, ZPage, ZSort } from "@/lib/list/schemas";
import { ZAmountCents, ZOptionalText } from "@/lib/pix/schemas";
import { isValidCpfOrCnpj, onlyDigits } from "@/lib/shared/cpf-cnpj";
import { paymentLinkLimits, paymentLinkMethodCodes, paymentLinkStatusFilters } from "./types";

// Error messages are `links.errors` keys; the same schemas validate the form in the browser.

export const ZLinkPaymentUuid = z.guid({ error: "invalidLink" });

// Spec 2.6: tokenVerificacao is an integer with no length given: any integer the gateway's JSON carries exactly.
export const ZLinkVerificationCode = z
  .string()
  .regex(/^-?\d{1,16}$/)
  .refine((code) => Number.isSafeInteger(Number(code)));

const ZMethodCode = z.union([z.literal(paymentLinkMethodCodes.CREDIT_CARD), z.literal(paymentLinkMethodCodes.PIX)]);

export const ZCreatePaymentLinkInput = z
  .object({
    idempotencyKey: z.uuid({ error: "invalidIdempotencyKey" }),
    payerName: z
      .string({ error: "payerNameRequired" })
      .trim()
      .min(1, { error: "payerNameRequired" })
      .max(200, { error: "payerNameTooLong" }),
    isForeignPayer: z.boolean().default(false),
    payerDocument: z
      .string({ error: "documentRequired" })
      .trim()
      .min(1, { error: "documentRequired" })
      .max(40, { error: "documentTooLong" }),
    amountCents: ZAmountCents,
    installments: z
      .number({ error: "installmentsRequired" })
      .int({ error: "installmentsRequired" })
      .min(1, { error: "installmentsRequired" })
      .max(paymentLinkLimits.maxInstallments, { error: "installmentsTooMany" }),
    acceptedMethodCodes: z.array(ZMethodCode).min(1, { error: "methodsRequired" }),
    expirationDays: z
      .number({ error: "expirationDaysRequired" })
      .int({ error: "expirationDaysRequired" })
      .min(paymentLinkLimits.minDays, { error: "expirationDaysOutOfRange" })
      .max(paymentLinkLimits.maxDays, { error: "expirationDaysOutOfRange" }),
    description: ZOptionalText(500, "descriptionTooLong"),
    userReference: ZOptionalText(100, "userReferenceTooLong"),
  })
  .superRefine((input, context) => {
    // A foreign document is sent as typed; a CPF/CNPJ must have valid check digits.
    if (!input.isForeignPayer && !isValidCpfOrCnpj(input.payerDocument)) {
      context.addIssue({ code: "custom", path: ["payerDocument"], message: "invalidDocument" });
    }
    // Installments are a card thing: a Pix-only link is paid at once.
    if (input.installments > 1 && !input.acceptedMethodCodes.includes(paymentLinkMethodCodes.CREDIT_CARD)) {
      context.addIssue({ code: "custom", path: ["installments"], message: "installmentsNeedCard" });
    }
  })
  .transform((input) => ({
    ...input,
    payerDocument: input.isForeignPayer ? input.payerDocument : onlyDigits(input.payerDocument),
  }));
export type TCreatePaymentLinkInput = z.input<typeof ZCreatePaymentLinkInput>;
export type TCreatePaymentLink = z.output<typeof ZCreatePaymentLinkInput>;

export const ZCancelPaymentLinkInput = z.object({ linkPaymentUuid: ZLinkPaymentUuid });

// The amount is the one staff confirmed: the refund is refused if what is owed changed meanwhile.
export const ZRefundLinkPixPaymentInput = z.object({
  linkPaymentUuid: ZLinkPaymentUuid,
  idempotencyKey: z.uuid({ error: "invalidIdempotencyKey" }),
  amountCents: ZAmountCents,
});
export type TRefundLinkPixPayment = z.output<typeof ZRefundLinkPixPaymentInput>;

// The upstream list has no paging: one call for the whole period.
export const ZRefreshPaymentLinksInput = z
  .object({ from: ZDay, to: ZDay })
  .refine((input) => input.from <= input.to, { path: ["to"], error: "periodReversed" });

const paymentLinkSortColumns = ["creationDate", "amount", "status", "expiresAt", "payerName"] as const;

export const ZPaymentLinkFilters = z.object({
  from: ZOptionalDay,
  to: ZOptionalDay,
  status: z.enum(paymentLinkStatusFilters).optional().catch(undefined),
  // The method the link was paid with (as upstream's paymentMethod filter): 1 card, 2 Pix.
  method: z.coerce.number().pipe(ZMethodCode).optional().catch(undefined),
  document: ZOptionalFilterText(40),
  userReference: ZOptionalFilterText(100),
  receipt: ZOptionalFilterText(100),
  sort: ZSort(paymentLinkSortColumns),
  order: ZOrder,
  page: ZPage,
});
export type TPaymentLinkFilters = z.output<typeof ZPaymentLinkFilters>;
