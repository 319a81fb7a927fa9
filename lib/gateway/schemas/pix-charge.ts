import { z } from "zod";
import { isValidCnpj, isValidCpf } from "@/lib/shared/cpf-cnpj";
import { ZDateTime, ZOptionalText, ZPageQuery, ZQueryDateTime, ZWireAmount } from "./common";
import { ZPixRefund } from "./pix-refund";

// 3.4 charge statuses. `Cancelada` is the only Portuguese one: compare strings exactly. The wire
// schema takes any string so a status added upstream does not break reads; use isKnownPixChargeStatus.
export const pixChargeStatuses = [
  "CREATED",
  "ACTIVE",
  "PAID",
  "PARTIALLY REFUNDED",
  "REFUNDED",
  "EXPIRED",
  "Cancelada",
] as const;
export type TPixChargeStatus = (typeof pixChargeStatuses)[number];

export function isKnownPixChargeStatus(status: string): status is TPixChargeStatus {
  return (pixChargeStatuses as readonly string[]).includes(status);
}

const ZPixChargeCalendar = z.object({
  creationDate: ZDateTime,
  expiration: z.number().int(),
  expirationDate: ZDateTime,
});

const ZPixDebtor = z.object({
  name: z.string(),
  naturalPersonIdentification: z.string().nullish(),
  legalPersonIdentification: z.string().nullish(),
});

// The Pix received, on a paid charge. `amount` is a string in the spec (not a number).
const ZPixReceived = z.object({
  endToEndId: z.string(),
  amount: z.string(),
  creationDate: ZDateTime,
  payerName: z.string(),
  payerDocumentNumber: z.string(),
});

// 2.7: items of the charge list carry only these fields.
export const ZPixChargeListItem = z.object({
  txid: z.string(),
  calendar: ZPixChargeCalendar,
  debtor: ZPixDebtor.nullable(),
  amount: z.number(),
  status: z.string(),
  description: ZOptionalText,
  userReference: ZOptionalText,
});
export type TPixChargeListItem = z.infer<typeof ZPixChargeListItem>;

export const ZPixCharge = ZPixChargeListItem.extend({
  pixCopyAndPaste: ZOptionalText,
  qrCodeBase64: ZOptionalText,
  pix: ZPixReceived.nullish().transform((pix) => pix ?? null),
  devolutionAllowed: z.boolean(),
  devolutions: z
    .array(ZPixRefund)
    .nullish()
    .transform((devolutions) => devolutions ?? null),
});
export type TPixCharge = z.infer<typeof ZPixCharge>;

// 4.4 body "not shown" in the spec: the sandbox's choice (sandbox/README.md), amount in BRL, expiration in seconds.
export const ZCreatePixChargeRequest = z.object({
  amount: ZWireAmount,
  expiration: z.number().int().min(1).optional(),
  debtor: z
    .object({
      name: z.string().trim().min(1).max(200),
      naturalPersonIdentification: z.string().refine(isValidCpf, "invalid CPF").optional(),
      legalPersonIdentification: z.string().refine(isValidCnpj, "invalid CNPJ").optional(),
    })
    .refine(
      (debtor) =>
        (debtor.naturalPersonIdentification === undefined) !== (debtor.legalPersonIdentification === undefined),
      {
        message: "give exactly one of naturalPersonIdentification (CPF) or legalPersonIdentification (CNPJ)",
        path: ["naturalPersonIdentification"],
      },
    )
    .optional(),
  description: z.string().max(140).optional(),
  userReference: z.string().max(100).optional(),
});
export type TCreatePixChargeRequest = z.input<typeof ZCreatePixChargeRequest>;

export const ZListPixChargesQuery = ZPageQuery.extend({
  initialDate: ZQueryDateTime,
  endDate: ZQueryDateTime,
  status: z.string().optional(),
  naturalPersonIdentification: z.string().optional(),
  legalPersonIdentification: z.string().optional(),
  userReference: z.string().optional(),
});
export type TListPixChargesQuery = z.input<typeof ZListPixChargesQuery>;
