import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { approverRecipients, mailApprovalWaiting } from "./recipients";

async function user(email: string, role: "ADMIN" | "STAFF", isActive = true) {
  return db.user.create({
    data: { email, name: email.split("@")[0]!, role, isActive, passwordHash: "x", locale: "en" },
  });
}

describe("approval notices", () => {
  beforeEach(async () => {
    await db.mailMessage.deleteMany();
    await db.user.deleteMany();
  });

  it("go to the active admins other than the requester, each in their language", async () => {
    const requester = await user("requester@example.com", "ADMIN");
    await user("approver@example.com", "ADMIN");
    await user("gone@example.com", "ADMIN", false);
    await user("staff@example.com", "STAFF");
    expect((await approverRecipients({ requesterId: requester.id })).map((row) => row.email)).toEqual([
      "approver@example.com",
    ]);

    await mailApprovalWaiting({ kind: "CARD_CANCEL", amountCents: 50_000, requesterId: requester.id });
    expect(
      await db.mailMessage.findMany({ select: { to: true, template: true, locale: true, subject: true } }),
    ).toEqual([
      {
        to: "approver@example.com",
        template: "approvalWaiting",
        locale: "en",
        subject: "A card cancellation waits for your approval",
      },
    ]);
  });
});
