import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import en from "@/lib/i18n/messages/en.json";
import ptBR from "@/lib/i18n/messages/pt-BR.json";

const values = { threshold: 1, label: "X", minutes: 5, baseline: 1 };

describe("alert summaries agree with their count", () => {
  it.each([
    ["en", en, "driftFound", "1 difference between the mirror and the gateway is not healed"],
    ["en", en, "jobFailing", "The job X failed once"],
    ["en", en, "webhookFailing", "The last delivery to X failed"],
    ["en", en, "certificateExpiry", "expires in 1 day "],
    ["pt-BR", ptBR, "driftFound", "1 diferença entre o espelho e o gateway não foi corrigida"],
    ["pt-BR", ptBR, "jobFailing", "A tarefa X falhou 1 vez "],
    ["pt-BR", ptBR, "webhookFailing", "A última entrega para X falhou"],
    ["pt-BR", ptBR, "certificateExpiry", "expira em 1 dia "],
  ] as const)("%s %s, one", (locale, messages, rule, expected) => {
    const t = createTranslator({ locale, messages });
    expect(t(`alerts.rules.${rule}.summary`, { ...values, value: 1 })).toContain(expected);
  });

  it("plural above one", () => {
    const t = createTranslator({ locale: "pt-BR", messages: ptBR });
    expect(t("alerts.rules.driftFound.summary", { ...values, value: 3 })).toContain("3 diferenças");
  });
});
