import { z } from "zod";

const ZFieldError = z.object({ campo: z.string(), erro: z.string() });
export type TFieldError = z.infer<typeof ZFieldError>;

// 7.1: the error body of Pix charges, refunds and webhooks (any status). Extra fields are kept.
export const ZPixApiErrorBody = z.looseObject({
  timestamp: z.string().optional(),
  errorCode: z.string(),
  httpStatus: z.number().int().optional(),
  mensagem: z.string(),
  xTransactionId: z.string().optional(),
  details: z.array(ZFieldError).nullish(),
});
export type TPixApiErrorBody = z.infer<typeof ZPixApiErrorBody>;

// 7.2 (the sandbox uses it for cards and links too). A refused link confirmation adds codigo/mensagem/
// merchantAdviceCode: kept as extra fields.
export const ZPaymentErrorResponse = z.looseObject({
  code: z.string(),
  message: z.string(),
  details: z.array(ZFieldError).nullish(),
  traceId: z.string().optional(),
  timestamp: z.string().optional(),
});
export type TPaymentErrorResponse = z.infer<typeof ZPaymentErrorResponse>;
