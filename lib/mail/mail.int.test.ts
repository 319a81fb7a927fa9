import { beforeEach, describe, expect, it } from "vitest";
import { db, inTransaction } from "@/lib/db/client";
import { getMail, listMail, outboxPageSize } from "./outbox";
import { sendMail } from "./send";

const invitation = (name: string) =>
  ({
    to: `${name}@example.com`,
    template: "invitation",
    locale: "en",
    params: { name: `<b>${name}</b>`, inviterName: "Ana", url: `http://127.0.0.1/invite/${name}`, validHours: 72 },
  }) as const;

describe("sendMail without SMTP_URL (the outbox)", () => {
  beforeEach(async () => {
    await db.mailMessage.deleteMany();
  });

  it("records the message with its body sealed, and the outbox opens it", async () => {
    expect(await sendMail(invitation("bia"))).toBe("SENT");
    const [row] = await db.mailMessage.findMany();
    expect(row).toMatchObject({ to: "bia@example.com", template: "invitation", locale: "en", transport: "OUTBOX" });
    expect(row!.bodyCiphertext).not.toContain("invite/bia");
    const mail = await getMail(row!.id);
    expect(mail?.subject).toBe("You are invited to the payments dashboard");
    expect(mail?.body?.text).toContain("http://127.0.0.1/invite/bia");
    expect(mail?.body?.html).toContain("&lt;b&gt;bia&lt;/b&gt;");
  });

  it("falls back to pt-BR for an unknown locale", async () => {
    await sendMail({ ...invitation("caio"), locale: "fr" });
    expect(await db.mailMessage.findFirst()).toMatchObject({ locale: "pt-BR" });
  });

  it("refuses to run inside an open transaction, where the embedded database would wait on itself", async () => {
    await expect(inTransaction(() => sendMail(invitation("dani")))).rejects.toThrow(/inside an open transaction/);
    expect(await db.mailMessage.count()).toBe(0);
  });

  it("lists newest first, a page at a time", async () => {
    for (let index = 0; index < outboxPageSize + 2; index += 1) await sendMail(invitation(`user${index}`));
    const first = await listMail(1);
    expect(first.pageCount).toBe(2);
    expect(first.rows).toHaveLength(outboxPageSize);
    expect(first.rows[0]!.to).toBe(`user${outboxPageSize + 1}@example.com`);
    expect((await listMail(2)).rows.map((row) => row.to)).toEqual(["user1@example.com", "user0@example.com"]);
  });
});
