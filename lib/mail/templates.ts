import { createTranslator } from "use-intl/core";
import type { TAlertRuleKey, TAlertSummaryParams } from "@/lib/alerts/rule-keys";
import { formatDateTime } from "@/lib/format/date-time";
import { formatBRL } from "@/lib/format/money";
import type { TLocale } from "@/lib/i18n/config";
import { timeZone } from "@/lib/i18n/config";
import en from "@/lib/i18n/messages/en.json";
import ptBR from "@/lib/i18n/messages/pt-BR.json";
import { renderMailLayout, type TMailContent, type TRenderedMail } from "./layout";

// Every message the app sends: its params, and how they become the shared layout's strings (catalog `mail.<name>`).
// Params are interpolated as plain text; the layout escapes them for the HTML part.

type TMailTranslator = ReturnType<typeof createTranslator<typeof en, "mail">>;

type TTemplate<TParams> = (params: TParams, t: TMailTranslator, locale: TLocale) => Omit<TMailContent, "footer">;

const defineTemplate = <TParams>(template: TTemplate<TParams>) => template;

export const mailTemplates = {
  invitation: defineTemplate<{ name: string; inviterName: string; url: string; validHours: number }>((p, t) => ({
    subject: t("invitation.subject"),
    greeting: t("greeting", { name: p.name }),
    paragraphs: [t("invitation.body", { inviterName: p.inviterName }), t("invitation.expiry", { hours: p.validHours })],
    action: { label: t("invitation.action"), url: p.url },
  })),
  passwordReset: defineTemplate<{ name: string; url: string; validMinutes: number; isByAdmin: boolean }>((p, t) => ({
    subject: t("passwordReset.subject"),
    greeting: t("greeting", { name: p.name }),
    paragraphs: [
      p.isByAdmin ? t("passwordReset.bodyByAdmin") : t("passwordReset.body"),
      t("passwordReset.expiry", { minutes: p.validMinutes }),
      t("passwordReset.notYou"),
    ],
    action: { label: t("passwordReset.action"), url: p.url },
  })),
  newDevice: defineTemplate<{ name: string; at: Date; ip: string | null; userAgent: string | null }>(
    (p, t, locale) => ({
      subject: t("newDevice.subject"),
      greeting: t("greeting", { name: p.name }),
      paragraphs: [
        t("newDevice.body", { at: formatDateTime(p.at, locale) }),
        t("newDevice.details", { ip: p.ip ?? "?", userAgent: p.userAgent ?? "?" }),
        t("newDevice.notYou"),
      ],
    }),
  ),
  twoFactorChanged: defineTemplate<{ name: string; change: "enabled" | "disabled" | "reset" }>((p, t) => ({
    subject: t(`twoFactorChanged.subject.${p.change}`),
    greeting: t("greeting", { name: p.name }),
    paragraphs: [t(`twoFactorChanged.body.${p.change}`), t("twoFactorChanged.notYou")],
  })),
  approvalWaiting: defineTemplate<{
    name: string;
    kind: "PIX_REFUND" | "CARD_CANCEL";
    amountCents: number;
    requesterName: string;
    url: string;
  }>((p, t, locale) => ({
    subject: t(`approvalWaiting.subject.${p.kind}`),
    greeting: t("greeting", { name: p.name }),
    paragraphs: [
      t(`approvalWaiting.body.${p.kind}`, {
        requesterName: p.requesterName,
        amount: formatBRL(p.amountCents, locale),
      }),
    ],
    action: { label: t("approvalWaiting.action"), url: p.url },
  })),
  alertIncident: defineTemplate<{
    name: string;
    ruleKey: TAlertRuleKey;
    summary: TAlertSummaryParams;
    openedAt: Date;
    resolvedAt: Date | null;
    url: string;
  }>((p, t, locale) => {
    const alerts = createTranslator({ locale, messages: catalogs[locale] as typeof en, namespace: "alerts" });
    const rule = alerts(`rules.${p.ruleKey}.title`);
    const state = p.resolvedAt ? "resolved" : "opened";
    return {
      subject: t(`alertIncident.subject.${state}`, { rule }),
      greeting: t("greeting", { name: p.name }),
      paragraphs: [
        t(`alertIncident.body.${state}`, {
          openedAt: formatDateTime(p.openedAt, locale),
          resolvedAt: p.resolvedAt ? formatDateTime(p.resolvedAt, locale) : "",
        }),
        alerts(`rules.${p.ruleKey}.summary`, p.summary),
        p.resolvedAt ? t("alertIncident.resolvedNote") : t("alertIncident.onceNote"),
      ],
      action: { label: t("alertIncident.action"), url: p.url },
    };
  }),
};

export type TMailTemplateName = keyof typeof mailTemplates;
export type TMailParams<TName extends TMailTemplateName> = Parameters<(typeof mailTemplates)[TName]>[0];

const catalogs = { en, "pt-BR": ptBR } as const;

export function renderMail<TName extends TMailTemplateName>(
  name: TName,
  params: TMailParams<TName>,
  locale: TLocale,
): TRenderedMail {
  const t = createTranslator({ locale, messages: catalogs[locale] as typeof en, namespace: "mail", timeZone });
  const template = mailTemplates[name] as TTemplate<TMailParams<TName>>;
  return renderMailLayout({ ...template(params, t, locale), footer: t("footer") }, locale);
}
