import {
  isPluralElement,
  isSelectElement,
  isTagElement,
  type MessageFormatElement,
  parse,
  TYPE,
} from "@formatjs/icu-messageformat-parser";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";

import { auditActions } from "@/lib/audit/audit-actions";
import { paymentLinkStatusFilters } from "@/lib/gateway/schemas/payment-link";
import { pixRefundStatusCodes } from "@/lib/gateway/schemas/pix-refund";
import { webhookEvents } from "@/lib/gateway/schemas/webhook";
import { JobOutcome, ReconciliationStatus, WebhookDeliveryOutcome } from "@/lib/generated/prisma/enums";
import { jobRegistry } from "@/lib/jobs/registry";
import { cardTokenStatuses } from "@/lib/saved-cards/schemas";
import { ssoRefusals } from "@/lib/sso/refusals";
import { webhookEventKey } from "@/lib/webhooks/schemas";

import { locales } from "./config";
import en from "./messages/en.json";
import ptBR from "./messages/pt-BR.json";

const messagesByLocale = { "pt-BR": ptBR, en } satisfies Record<(typeof locales)[number], unknown>;

function keyPaths(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

function emptyValues(value: unknown, prefix = ""): string[] {
  return keyPaths(value, prefix).filter((path) => {
    const leaf = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value);
    return typeof leaf !== "string" || leaf.trim() === "";
  });
}

/** The arguments (`{name}`) and rich-text tags (`<name>`) a message takes, as the ICU parser reads it. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      if (isTagElement(element)) {
        names.add(`<${element.value}>`);
        walk(element.children);
        continue;
      }
      names.add(`{${element.value}}`);
      if (isPluralElement(element) || isSelectElement(element))
        for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(parse(message));
  return [...names].sort();
}

describe("message files", () => {
  it("has a file for every supported locale", () => {
    expect(Object.keys(messagesByLocale).sort()).toEqual([...locales].sort());
  });

  it("pt-BR and en have exactly the same keys", () => {
    expect(keyPaths(en).sort()).toEqual(keyPaths(ptBR).sort());
  });

  it.each(Object.entries(messagesByLocale))("%s has no empty or non-text messages", (_locale, messages) => {
    expect(emptyValues(messages)).toEqual([]);
  });

  // A tag in one language and an argument in the other renders the value in one of them only (rich text passes a
  // date or a link as a tag; an argument given a tag's function prints nothing).
  it("pt-BR and en take the same arguments and tags in every message", () => {
    const leaf = (messages: unknown, path: string) =>
      path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], messages) as string;
    const differing = keyPaths(en)
      .map((path) => ({ path, en: placeholders(leaf(en, path)), ptBR: placeholders(leaf(ptBR, path)) }))
      .filter((entry) => entry.en.join() !== entry.ptBR.join());
    expect(differing).toEqual([]);
  });
});

describe("messages the code builds from names", () => {
  const lookup = (messages: unknown, path: string) =>
    path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], messages);

  it.each(Object.entries(messagesByLocale))("%s names every audit action", (_locale, messages) => {
    const missing = auditActions.filter((action) => typeof lookup(messages, `audit.actions.${action}`) !== "string");
    expect(missing).toEqual([]);
  });

  // Every key a page builds from a name, a status or an event kind (the `t(\`….${name}\`)` calls).
  const builtKeys = [
    ...auditActions.map((action) => `audit.actions.${action}`),
    ...jobRegistry.map((job) => `jobs.names.${job.name}`),
    ...[...Object.values(JobOutcome), "NEVER"].map((status) => `jobs.status.${status}`),
    ...Object.values(ReconciliationStatus).map((status) => `reconciliation.status.${status}`),
    ...webhookEvents.map((event) => `webhooks.events.${webhookEventKey(event)}`),
    ...Object.values(WebhookDeliveryOutcome).map((outcome) => `webhooks.outcomes.${outcome}`),
    ...Object.values(pixRefundStatusCodes).map((code) => `refunds.status.${code}`),
    ...paymentLinkStatusFilters.map((status) => `links.statusFilter.${status}`),
    ...cardTokenStatuses.map((status) => `cards.status.${status}`),
    ...ssoRefusals.map((reason) => `auth.login.ssoErrors.${reason}`),
  ];

  it.each(Object.entries(messagesByLocale))(
    "%s has every key built from names, statuses and events",
    (_l, messages) => {
      expect(builtKeys.filter((key) => typeof lookup(messages, key) !== "string")).toEqual([]);
    },
  );
});

describe("counts agree with their number", () => {
  // CLDR puts 0 with 1 in Portuguese ("one"): a count that can be zero says so in words or in the plural.
  const pt = createTranslator({ locale: "pt-BR", messages: ptBR });
  const english = createTranslator({ locale: "en", messages: en });

  it("in the overview's figures", () => {
    expect([0, 1, 2].map((count) => pt("overview.split.approved", { count }))).toEqual([
      "nenhum aprovado",
      "1 aprovado",
      "2 aprovados",
    ]);
    expect([0, 1, 2].map((count) => pt("overview.split.cancelled", { count }))).toEqual([
      "nenhum cancelado",
      "1 cancelado",
      "2 cancelados",
    ]);
    expect(pt("overview.refundsProcessing.created", { count: 1 })).toBe("1 criada");
    expect(pt("overview.conversion.paid", { count: 1 })).toBe("1 pago");
    expect(pt("overview.pendingPix.value", { count: 0 })).toBe("Nenhuma cobrança");
    expect(pt("overview.openLinks.value", { count: 0 })).toBe("Nenhum link");
    expect(english("overview.count.value", { count: 0 })).toBe("No payments");
  });

  it("in the reconciliation's runs", () => {
    expect(
      [
        pt("reconciliation.scannedKinds.pix_charge", { count: 1 }),
        pt("reconciliation.scannedKinds.pix_refund", { count: 0 }),
        pt("reconciliation.scannedKinds.card_payment", { count: 2 }),
        pt("reconciliation.scannedKinds.payment_link", { count: 1 }),
      ].join(", "),
    ).toBe("1 cobrança, 0 devoluções, 2 pagamentos com cartão, 1 link de pagamento");
    expect(
      [
        english("reconciliation.scannedKinds.pix_charge", { count: 1 }),
        english("reconciliation.scannedKinds.pix_refund", { count: 0 }),
        english("reconciliation.scannedKinds.card_payment", { count: 2 }),
        english("reconciliation.scannedKinds.payment_link", { count: 0 }),
      ].join(", "),
    ).toBe("1 charge, 0 refunds, 2 card payments, 0 payment links");
    expect(pt("reconciliation.toast.failed", { count: 1 })).toContain("(1 corrigido)");
    expect(pt("reconciliation.scheduleOff", { windowHours: 1 })).toContain("da última hora");
    expect(english("reconciliation.scheduleOff", { windowHours: 48 })).toContain("of the last 48 hours");
  });
});
