import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLog } from "./log";

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe("log", () => {
  it("writes each line's own fields only, never an earlier line's", () => {
    const { lines, destination } = capture();
    const log = createLog(destination);
    log.info({ mailId: "m-1", error: "boom" }, "mail");
    log.info({ gateway: { operation: "pix-charges.create" } }, "gateway call");
    expect(lines[1]).not.toHaveProperty("mailId");
    expect(lines[1]).not.toHaveProperty("error");
    expect(lines[1]).toMatchObject({ msg: "gateway call", gateway: { operation: "pix-charges.create" } });
  });

  it("redacts a card number and a security code that reach it anyway", () => {
    const { lines, destination } = capture();
    createLog(destination).info({ body: { numeroCartao: "4111111111111111", codigoSeguranca: "123" } }, "x");
    expect(JSON.stringify(lines[0])).not.toContain("4111111111111111");
  });
});
