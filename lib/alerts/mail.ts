import "server-only";
import { builtInRolesHolding } from "@/lib/auth/roles";
import { serverEnv } from "@/lib/config/server-env";
import { db } from "@/lib/db/client";
import { sendMail } from "@/lib/mail/send";
import { summaryParams, type TIncidentRow } from "./incidents";
import type { TAlertRuleKey } from "./rule-keys";

async function alertRecipients() {
  return db.user.findMany({
    where: {
      isActive: true,
      OR: [
        { roleId: { in: builtInRolesHolding("alerts.receive") } },
        { role: { isBuiltIn: false, permissions: { has: "alerts.receive" } } },
      ],
    },
    select: { email: true, name: true, locale: true },
    orderBy: { email: "asc" },
  });
}

// One message per recipient when an incident opens and one when it resolves; nothing while it stays open.
export async function mailAlertIncident(incident: TIncidentRow): Promise<void> {
  const url = new URL(`/alerts?incident=${incident.id}`, serverEnv.APP_URL).toString();
  for (const recipient of await alertRecipients()) {
    await sendMail({
      to: recipient.email,
      template: "alertIncident",
      locale: recipient.locale,
      params: {
        name: recipient.name,
        ruleKey: incident.ruleKey as TAlertRuleKey,
        summary: summaryParams(incident),
        openedAt: incident.openedAt,
        resolvedAt: incident.resolvedAt,
        url,
      },
    });
  }
}
