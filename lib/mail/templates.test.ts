import { describe, expect, it } from "vitest";
import { locales } from "@/lib/i18n/config";
import { escapeHtml } from "./layout";
import { mailTemplates, renderMail, type TMailTemplateName } from "./templates";

const hostile = `<script>alert("x")</script> & 'quotes'`;

const samples: { [K in TMailTemplateName]: Parameters<(typeof mailTemplates)[K]>[0] } = {
  invitation: { name: hostile, inviterName: hostile, url: "http://127.0.0.1:3000/invite/abc?x=1&y=2", validHours: 72 },
  passwordReset: { name: hostile, url: "http://127.0.0.1:3000/reset-password/abc", validMinutes: 30, isByAdmin: false },
  newDevice: { name: hostile, at: new Date("2026-11-27T12:00:00Z"), ip: "203.0.113.9", userAgent: hostile },
  twoFactorChanged: { name: hostile, change: "enabled" },
  approvalWaiting: {
    name: hostile,
    kind: "PIX_REFUND",
    amountCents: 123456,
    requesterName: hostile,
    url: "http://127.0.0.1:3000/approvals",
  },
  alertIncident: {
    name: hostile,
    ruleKey: "gatewayErrorRate",
    summary: { value: 42.5, threshold: 5, label: hostile, minutes: 5, baseline: 0 },
    openedAt: new Date("2026-11-27T12:00:00Z"),
    resolvedAt: null,
    url: "http://127.0.0.1:3000/alerts?incident=1",
  },
};

const names = Object.keys(mailTemplates) as TMailTemplateName[];

describe("mail templates", () => {
  it.each(locales.flatMap((locale) => names.map((name) => ({ locale, name }))))(
    "$name in $locale has a subject, a text part and an HTML part with every interpolation escaped",
    ({ locale, name }) => {
      const mail = renderMail(name, samples[name] as never, locale);
      expect(mail.subject.length).toBeGreaterThan(3);
      expect(mail.text).toContain(hostile);
      expect(mail.text).not.toContain("<p");
      expect(mail.html).toContain(escapeHtml(hostile));
      expect(mail.html).not.toContain("<script>");
      expect(mail.html).toContain(`lang="${locale}"`);
    },
  );

  it("speaks the recipient's language", () => {
    const pt = renderMail("passwordReset", samples.passwordReset, "pt-BR");
    const en = renderMail("passwordReset", samples.passwordReset, "en");
    expect(pt.subject).toBe("Escolha uma nova senha");
    expect(en.subject).toBe("Choose a new password");
    expect(pt.text).toContain("30 minutos");
    expect(en.text).toContain("30 minutes");
  });

  it("puts the link in both parts, escaped in the HTML", () => {
    const mail = renderMail("invitation", samples.invitation, "en");
    expect(mail.text).toContain("http://127.0.0.1:3000/invite/abc?x=1&y=2");
    expect(mail.html).toContain('href="http://127.0.0.1:3000/invite/abc?x=1&amp;y=2"');
  });

  it("formats money and names the kind of request in approval notices", () => {
    expect(renderMail("approvalWaiting", samples.approvalWaiting, "pt-BR").text).toMatch(/R\$\s1\.234,56/);
    const cancel = renderMail("approvalWaiting", { ...samples.approvalWaiting, kind: "CARD_CANCEL" }, "en");
    expect(cancel.subject).toBe("A card cancellation waits for your approval");
  });

  it("names the rule and says when an alert opened and when it resolved", () => {
    const opened = renderMail("alertIncident", samples.alertIncident, "en");
    expect(opened.subject).toBe("Alert: Gateway error rate");
    expect(opened.text).toContain("42.5% of gateway calls failed");
    const resolved = renderMail(
      "alertIncident",
      { ...samples.alertIncident, resolvedAt: new Date("2026-11-27T12:07:00Z") },
      "pt-BR",
    );
    expect(resolved.subject).toBe("Resolvido: Taxa de erro do gateway");
  });
});
