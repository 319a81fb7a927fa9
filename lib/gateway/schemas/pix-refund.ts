import { z } from "zod";
import { ZDateTime, ZOptionalText, ZPageQuery, ZQueryDateTime, ZWireAmount } from "./common";

// 3.5 refund status codes. Upstream may add codes: any integer parses, these are the known ones.
export const pixRefundStatusCodes = { CREATED: 1, PROCESSING: 2, RETURNED: 3, "NOT FINISHED": 4, ERROR: 99 } as const;

export const ZPixRefund = z.object({
  pixRefundId: z.string(),
  pixChargeId: z.number().int(),
  tenantId: z.string(),
  partnerBankId: z.number().int(),
  amount: z.number(),
  status: z.object({ code: z.number().int(), description: z.string() }),
  statusReason: ZOptionalText,
  pixChargeTxid: z.string(),
  refundEndToEnd: ZOptionalText,
  sendWebhookInt: z.number().int(),
  pixEndToEnd: ZOptionalText,
  creationDate: ZDateTime,
  updatedAt: ZDateTime,
  // "Internal use" fields: tolerated when absent.
  refundTypeCode: z.number().int().nullish(),
  numberRetries: z.number().int().nullish(),
  settlementDate: ZDateTime.nullable(),
  description: ZOptionalText,
  // Not in the 2.8 table, but 4.5 says the request's userReference "is returned on read".
  userReference: ZOptionalText,
});
export type TPixRefund = z.infer<typeof ZPixRefund>;

export const ZRequestPixRefundRequest = z.object({
  txid: z.string().min(1),
  amount: ZWireAmount,
  description: z.string().max(140).optional(),
  userReference: z.string().max(100).optional(),
  sendWebhook: z.boolean().optional(),
});
export type TRequestPixRefundRequest = z.input<typeof ZRequestPixRefundRequest>;

export const ZListPixRefundsQuery = ZPageQuery.extend({
  initialDate: ZQueryDateTime.optional(),
  endDate: ZQueryDateTime.optional(),
  pixChargeTxid: z.string().min(1).optional(),
  status: z.number().int().optional(),
});
export type TListPixRefundsQuery = z.input<typeof ZListPixRefundsQuery>;
