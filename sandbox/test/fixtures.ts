import { createHmac } from "node:crypto";
import { expect } from "vitest";
import type { TResponse, TSandbox } from "./harness";

/** Date range that covers every charge created by a test run. */
export const wholeRange = "initialDate=2000-01-01T00:00:00Z&endDate=2100-01-01T00:00:00Z";

export function expectPixError(response: TResponse, status: number, errorCode?: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({
    httpStatus: status,
    xTransactionId: expect.any(String),
    mensagem: expect.any(String),
    details: expect.any(Array),
  });
  expect(response.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/);
  if (errorCode) expect(response.body.errorCode).toBe(errorCode);
}

export function expectValidationError(response: TResponse, ...fields: string[]): void {
  expectPixError(response, 400, "VALIDACAO_INVALIDA");
  const campos = (response.body.details as Array<{ campo: string; erro: string }>).map((detail) => detail.campo);
  for (const field of fields) expect(campos, JSON.stringify(response.body.details)).toContain(field);
}

export async function createCharge(sandbox: TSandbox, client = "merchant", body: Record<string, unknown> = {}) {
  const response = await sandbox.request(client, "POST", "/api/v1/pix-charges", { amount: 100, ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export async function createPaidCharge(sandbox: TSandbox, client = "merchant", body: Record<string, unknown> = {}) {
  const charge = await createCharge(sandbox, client, body);
  const paid = await sandbox.request(client, "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return paid.body;
}

export function hmacHex(secret: string, raw: Buffer | string): string {
  return createHmac("sha256", secret).update(raw).digest("hex");
}
