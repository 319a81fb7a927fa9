import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { recordSignInDevice } from "./known-devices";

const context = { ip: "203.0.113.30", userAgent: "vitest browser" };

describe("sign-in devices", () => {
  beforeEach(async () => {
    await db.mailMessage.deleteMany();
    await db.user.deleteMany();
  });

  it("mails the user on a device they never used, but not on the first one nor on a known one", async () => {
    const { id } = await db.user.create({
      data: { email: "bia@example.com", name: "Bia", passwordHash: "x", locale: "pt-BR" },
    });
    expect(await recordSignInDevice(id, "first-device-id-000000", context)).toBe(false);
    expect(await recordSignInDevice(id, "first-device-id-000000", context)).toBe(false);
    expect(await recordSignInDevice(id, "other-device-id-000000", context)).toBe(true);
    expect(await db.knownDevice.count({ where: { userId: id } })).toBe(2);
    const mails = await db.mailMessage.findMany();
    expect(mails.map((mail) => [mail.to, mail.template, mail.subject])).toEqual([
      ["bia@example.com", "newDevice", "Novo acesso à sua conta"],
    ]);
    // Only the hash of the cookie's id is kept.
    expect(JSON.stringify(await db.knownDevice.findMany())).not.toContain("other-device-id");
  });
});
