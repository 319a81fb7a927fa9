import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { approverRecipients, mailApprovalWaiting } from "./recipients";

async function user(email: string, roleId: string, isActive = true) {
  return db.user.create({
    data: { email, name: email.split("@")[0]!, roleId, isActive, passwordHash: "x", locale: "en" },
  });
}

describe("approval notices", () => {
  beforeEach(async () => {
    await db.mailMessage.deleteMany();
    await db.user.deleteMany();
    await db.role.deleteMany({ where: { isBuiltIn: false } });
  });

  it("go to the active people whose role may approve, other than the requester, each in their language", async () => {
    const requester = await user("requester@example.com", "administrator");
    await user("approver@example.com", "administrator");
    await user("owner@example.com", "owner");
    await user("gone@example.com", "administrator", false);
    await user("staff@example.com", "operations");
    await db.role.create({
      data: { id: "approvers", name: "Approvers", permissions: ["payments.view", "refunds.approve"] },
    });
    await db.role.create({ data: { id: "lookers", name: "Lookers", permissions: ["payments.view"] } });
    await user("custom@example.com", "approvers");
    await user("looker@example.com", "lookers");
    expect((await approverRecipients({ requesterId: requester.id })).map((row) => row.email)).toEqual([
      "approver@example.com",
      "custom@example.com",
      "owner@example.com",
    ]);

    await mailApprovalWaiting({ kind: "CARD_CANCEL", amountCents: 50_000, requesterId: requester.id });
    expect(
      await db.mailMessage.findMany({
        select: { to: true, template: true, locale: true, subject: true },
        orderBy: { to: "asc" },
      }),
    ).toEqual(
      ["approver@example.com", "custom@example.com", "owner@example.com"].map((to) => ({
        to,
        template: "approvalWaiting",
        locale: "en",
        subject: "A card cancellation waits for your approval",
      })),
    );
  });
});
