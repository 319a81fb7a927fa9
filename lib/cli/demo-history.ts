// `npm run demo`'s history (README "Demo"): about 30 days of activity made at the sandbox at past instants (its clock
// control), mirrored by the app's own code: create paths, the webhook receiver and the reconciler. Once per .data/.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { recordCardPaymentCancellation, upsertCardPaymentFromGateway } from "@/lib/card-payments/mirror";
import { db } from "@/lib/db/client";
import { GatewayRefusedError } from "@/lib/gateway/errors";
import * as payments from "@/lib/gateway/payments";
import * as pixCharges from "@/lib/gateway/pix-charges";
import * as pixRefunds from "@/lib/gateway/pix-refunds";
import {
  listSandboxDeliveryAttempts,
  payPixChargeAtSandbox,
  setSandboxClock,
  tamperPixChargeAtSandbox,
} from "@/lib/gateway/sandbox-control";
import type { TPaymentTransaction } from "@/lib/gateway/schemas/payment";
import { registerWebhook, updateWebhook } from "@/lib/gateway/webhooks";
import { payLinkByCard } from "@/lib/links/pay-page-card";
import { createPaymentLink } from "@/lib/links/payment-links";
import { getOrCreateLinkPixCharge } from "@/lib/links/pix";
import { log } from "@/lib/log";
import { refreshOverviewDays } from "@/lib/overview/rollup";
import { upsertPixChargeFromGateway, upsertPixRefundFromGateway } from "@/lib/pix/mirror";
import { runPosMatching } from "@/lib/pos/match";
import { HttpBackend, type PaymentApp, PosClient, type TPaymentAppResult, type TPaymentIntent } from "@/lib/pos-sdk";
import { runReconciliation } from "@/lib/reconcile/reconcile";
import { isReportableByPos } from "./demo-history-window";
import { startDemoHost } from "./demo-host";
import { posPaymentResultOf } from "./demo-pos";

const demoHistoryFile = path.resolve(".data/demo/history.json");
const historyVersion = 1;
const context = { actor: null, userAgent: "cli:demo-history" };
const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;
// São Paulo has kept UTC-3 all year since 2019.
const saoPauloOffsetMs = -3 * hourMs;

export type THistoryOptions = {
  // The dashboard's address: the seed serves its webhook receiver and POS routes there while it runs.
  appUrl: string;
  pos: { apiKey: string; posIds: string[] };
  days?: number;
  scale?: number;
  file?: string;
  now?: Date;
  seed?: number;
};
type THistoryFile = {
  version: number;
  seededAt: string;
  days: number;
  durationMs: number;
  resources: number;
  counts: TCounts;
};
type TCounts = Record<string, number>;

type TStep = { at: number; run: () => Promise<void> };

function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const between = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, between, pick, chance: (p: number) => next() < p };
}
type TRandom = ReturnType<typeof prng>;

const prices = [1990, 2490, 2990, 3990, 4590, 5990, 7990, 8990, 12_900, 14_990, 19_990, 24_900, 34_990, 49_900];
const firstNames = ["Ana", "Bruno", "Carla", "Diego", "Elisa", "Felipe", "Gabriela", "Heitor", "Isabela", "João"];
const lastNames = ["Silva", "Souza", "Oliveira", "Santos", "Pereira", "Lima", "Costa", "Ribeiro", "Almeida"];
const items = ["Pedido", "Assinatura mensal", "Consulta", "Kit presente", "Encomenda", "Serviço de entrega"];
const approvingCards = [
  { number: "4111111111111111", bandeira: "1" },
  { number: "5555555555554444", bandeira: "2" },
];
const refusingCards = [
  { number: "4000000000000002", bandeira: "1" },
  { number: "4000000000009995", bandeira: "1" },
  { number: "4000000000000069", bandeira: "1" },
];

function amountOf(random: TRandom): number {
  if (random.chance(0.03)) return random.between(25, 125) * 1000 - 10;
  return random.pick(prices);
}

function cpfOf(random: TRandom): string {
  const digits = Array.from({ length: 9 }, () => random.between(0, 9));
  if (digits.every((digit) => digit === digits[0])) digits[0] = (digits[0]! + 1) % 10;
  for (const length of [9, 10]) {
    const sum = digits.reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    digits.push(((sum * 10) % 11) % 10);
  }
  return digits.join("");
}

const personOf = (random: TRandom) => ({
  name: `${random.pick(firstNames)} ${random.pick(lastNames)}`,
  cpf: cpfOf(random),
});

function uuidOf(random: TRandom): string {
  const hex = Array.from({ length: 32 }, () => random.between(0, 15).toString(16));
  hex[12] = "4";
  hex[16] = ((random.between(0, 15) & 0x3) | 0x8).toString(16);
  const text = hex.join("");
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

// Business hours, busiest after lunch: the sum of two uniforms peaks mid-range.
const timeOfDayMs = (random: TRandom) => Math.round(((random.next() + random.next()) / 2) * 13 * hourMs + 8 * hourMs);

function readDemoHistory(file = demoHistoryFile): THistoryFile | null {
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as THistoryFile;
    return parsed.version === historyVersion ? parsed : null;
  } catch {
    return null;
  }
}

type TPlanContext = { random: TRandom; counts: TCounts; pos: THistoryOptions["pos"]; appUrl: string };

const count = (counts: TCounts, name: string) => {
  counts[name] = (counts[name] ?? 0) + 1;
};

async function payByCard(body: Parameters<typeof payments.createPayment>[0]): Promise<TPaymentTransaction> {
  try {
    return await payments.createPayment(body);
  } catch (error) {
    if (error instanceof GatewayRefusedError) return error.response as TPaymentTransaction;
    throw error;
  }
}

function pixStory(plan: TPlanContext, at: number, latest: number, n: number, isPaid?: boolean): TStep[] {
  const { random, counts } = plan;
  const cents = amountOf(random);
  const payer = personOf(random);
  let txid = "";
  const steps: TStep[] = [
    {
      at,
      run: async () => {
        const charge = await pixCharges.createPixCharge({
          amount: cents / 100,
          expiration: random.pick([900, 1800, 3600]),
          debtor: random.chance(0.6) ? { name: payer.name, naturalPersonIdentification: payer.cpf } : undefined,
          description: `${random.pick(items)} ${1000 + n}`,
          userReference: `demo-${n}`,
        });
        txid = charge.txid;
        await upsertPixChargeFromGateway(charge);
        count(counts, "pixCharges");
      },
    },
  ];
  if (!(isPaid ?? random.chance(0.78))) return steps;
  const paidAt = at + random.between(1, 12) * minuteMs;
  steps.push({
    at: paidAt,
    run: async () => {
      await payPixChargeAtSandbox(txid, { payerName: payer.name.toUpperCase(), payerDocumentNumber: payer.cpf });
      count(counts, "pixPaid");
    },
  });
  const refundAt = paidAt + random.between(2 * 60, 4 * 24 * 60) * minuteMs;
  if (!random.chance(0.14) || refundAt > latest) return steps;
  const isPartial = random.chance(0.5);
  const refundCents = isPartial ? Math.max(100, Math.round((cents * random.between(20, 70)) / 100)) : cents;
  steps.push({
    at: refundAt,
    run: async () => {
      const refund = await pixRefunds.requestPixRefund({
        txid,
        amount: Math.min(refundCents, cents) / 100,
        description: isPartial ? "Devolução parcial" : "Devolução do pedido",
      });
      await upsertPixRefundFromGateway(refund);
      count(counts, isPartial && refundCents < cents ? "pixRefundsPartial" : "pixRefundsFull");
    },
  });
  return steps;
}

function cardStory(plan: TPlanContext, at: number, latest: number, n: number): TStep[] {
  const { random, counts } = plan;
  const cents = amountOf(random);
  const isRefused = random.chance(0.13);
  const card = random.pick(isRefused ? refusingCards : approvingCards);
  const installments = cents >= 20_000 && random.chance(0.4) ? random.between(2, 6) : 1;
  let paymentId = "";
  const steps: TStep[] = [
    {
      at,
      run: async () => {
        const transaction = await payByCard({
          identificacaoPagamento: `demo-${n}`,
          numeroParcelas: installments,
          tipoParcelamento: installments > 1 ? "4" : "3",
          bandeiraCartao: card.bandeira,
          valor: cents / 100,
          numeroCartao: card.number,
          dataExpiracao: "12/30",
        });
        const { payment } = await upsertCardPaymentFromGateway(transaction, {
          origin: "TERMINAL",
          cardBin: card.number.slice(0, 6),
          cardLastFour: card.number.slice(-4),
          installmentType: installments > 1 ? "4" : "3",
          installmentCount: installments,
        });
        paymentId = payment.id;
        count(counts, payment.isApproved ? "cardPaymentsApproved" : "cardPaymentsRefused");
      },
    },
  ];
  const cancelAt = at + random.between(10, 180) * minuteMs;
  if (isRefused || !random.chance(0.1) || cancelAt > latest) return steps;
  steps.push({
    at: cancelAt,
    run: async () => {
      const cancellation = await payments.cancelPayment(paymentId);
      await recordCardPaymentCancellation(paymentId, cancellation);
      count(counts, "cardPaymentsCancelled");
    },
  });
  return steps;
}

// The PDV's payment application: it charges the card at the gateway, which the dashboard mirrors with the card's BIN.
class SandboxPaymentApp implements PaymentApp {
  constructor(private readonly sale: { card: (typeof approvingCards)[number]; orderId: string }) {}

  async pay(intent: TPaymentIntent): Promise<TPaymentAppResult> {
    const { card, orderId } = this.sale;
    const installmentType = intent.installments > 1 ? "4" : "3";
    const transaction = await payByCard({
      identificacaoPagamento: orderId,
      numeroParcelas: intent.installments,
      tipoParcelamento: installmentType,
      bandeiraCartao: card.bandeira,
      valor: intent.amountInCents / 100,
      numeroCartao: card.number,
      dataExpiracao: "12/30",
    });
    const { payment } = await upsertCardPaymentFromGateway(transaction, {
      origin: "POS",
      cardBin: card.number.slice(0, 6),
      cardLastFour: card.number.slice(-4),
      installmentType,
      installmentCount: intent.installments,
    });
    return posPaymentResultOf(payment);
  }
}

// A sale at a PDV, through the POS client and this app's /v1 backend, reported with the sale's own time.
function posStory(plan: TPlanContext, at: number, n: number): TStep[] {
  const { random, counts } = plan;
  const cents = random.chance(0.7) ? random.pick(prices.slice(0, 8)) : amountOf(random);
  const card = random.chance(0.1) ? random.pick(refusingCards) : random.pick(approvingCards);
  const posId = random.pick(plan.pos.posIds);
  const installments = cents >= 20_000 && random.chance(0.3) ? 3 : 1;
  return [
    {
      at,
      run: async () => {
        const client = new PosClient({
          apiKey: plan.pos.apiKey,
          backend: new HttpBackend({ apiKey: plan.pos.apiKey, baseUrl: plan.appUrl, timeoutMs: 10_000 }),
          logger: { error: () => {} },
          now: () => new Date(at),
        });
        const sale = await client.sale({
          posId,
          amountInCents: cents,
          installments,
          paymentApp: new SandboxPaymentApp({ card, orderId: `pos-${n}` }),
        });
        if (!sale.isReported) throw new Error(`POS report refused: ${sale.reportError?.detail ?? "unknown"}`);
        count(counts, sale.payment.approved ? "posSalesApproved" : "posSalesRefused");
      },
    },
  ];
}

function linkStory(plan: TPlanContext, at: number, latest: number, n: number): TStep[] {
  const { random, counts } = plan;
  const cents = amountOf(random);
  const payer = personOf(random);
  const method = random.next();
  const way = method < 0.45 ? "card" : method < 0.8 ? "pix" : "open";
  const key = uuidOf(random);
  let uuid = "";
  const steps: TStep[] = [
    {
      at,
      run: async () => {
        ({ linkPaymentUuid: uuid } = await createPaymentLink(
          {
            idempotencyKey: key,
            payerName: payer.name,
            isForeignPayer: false,
            payerDocument: payer.cpf,
            amountCents: cents,
            installments: cents >= 20_000 ? 3 : 1,
            acceptedMethodCodes: [1, 2],
            // Still payable today, so the pay page's own checks let the seed pay it.
            expirationDays: way === "open" ? 7 : 60,
            description: `${random.pick(items)} para ${payer.name}`,
            userReference: undefined,
          },
          context,
        ));
        count(counts, "links");
      },
    },
  ];
  const paidAt = at + random.between(3, 90) * minuteMs;
  if (way === "open" || paidAt > latest) return steps;
  if (way === "card") {
    const card = random.chance(0.85) ? random.pick(approvingCards) : random.pick(refusingCards);
    steps.push({
      at: paidAt,
      run: async () => {
        // Each payer on a device of their own (a documentation address): the pay page limits attempts per address.
        const outcome = await payLinkByCard(
          uuid,
          { cardNumber: card.number, holderName: payer.name, expiry: "12/30", securityCode: "123", installments: 1 },
          { ...context, ip: `198.51.100.${1 + (n % 254)}` },
        );
        if (outcome.status !== "paid" && outcome.status !== "refused")
          throw new Error(`the pay page did not take the card: ${outcome.status}`);
        count(counts, outcome.status === "paid" ? "linksPaidByCard" : "linkCardRefusals");
      },
    });
    return steps;
  }
  steps.push({
    at: paidAt,
    run: async () => {
      await getOrCreateLinkPixCharge(uuid, context);
      const link = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: uuid } });
      await payPixChargeAtSandbox(link.pixChargeTxid!, {
        payerName: payer.name.toUpperCase(),
        payerDocumentNumber: payer.cpf,
      });
      count(counts, "linksPaidByPix");
    },
  });
  return steps;
}

// A stale subscription with a secret the app never had: its deliveries reach the app's receiver, which refuses them
// (401, invalid signature), and the sandbox retries and gives up, as it would for a misconfigured endpoint.
function staleSubscriptionSteps(plan: TPlanContext, from: number, to: number): TStep[] {
  let upstreamId = "";
  let url = "";
  return [
    {
      at: from,
      run: async () => {
        const own = await db.webhook.findFirstOrThrow({
          where: { isActive: true, retiredAt: null, upstreamId: { not: null } },
          orderBy: { createdAt: "asc" },
        });
        url = own.url;
        ({ id: upstreamId } = await registerWebhook({ url, events: ["pix_charge.paid"] }));
        count(plan.counts, "staleSubscriptions");
      },
    },
    {
      at: to,
      run: () => updateWebhook(upstreamId, { url, events: ["pix_charge.paid"], active: false }).then(() => {}),
    },
  ];
}

function planHistory(plan: TPlanContext, options: { days: number; scale: number; now: Date }): TStep[] {
  const { random } = plan;
  const latest = options.now.getTime() - 10 * minuteMs;
  const todayStart = Math.floor((options.now.getTime() + saoPauloOffsetMs) / dayMs) * dayMs - saoPauloOffsetMs;
  const steps: TStep[] = [];
  let n = 0;
  for (let back = options.days; back >= 0; back -= 1) {
    const dayStart = todayStart - back * dayMs;
    const weekday = new Date(dayStart - saoPauloOffsetMs + 12 * hourMs).getUTCDay();
    // Quieter weekends, and a business that grows a little over the month.
    const weight =
      (weekday === 0 ? 0.45 : weekday === 6 ? 0.7 : 1) * (0.85 + (0.3 * (options.days - back)) / options.days);
    const howMany = (base: number) => Math.round(base * weight * options.scale * (0.75 + random.next() * 0.5));
    const at = () => dayStart + timeOfDayMs(random);
    const stories: Array<(start: number, number: number) => TStep[]> = [];
    for (let i = howMany(6); i > 0; i -= 1) stories.push((start, number) => pixStory(plan, start, latest, number));
    for (let i = howMany(3.5); i > 0; i -= 1) stories.push((start, number) => cardStory(plan, start, latest, number));
    for (let i = howMany(2); i > 0; i -= 1)
      stories.push((start, number) => (isReportableByPos(start, options.now) ? posStory(plan, start, number) : []));
    for (let i = howMany(1.6); i > 0; i -= 1) stories.push((start, number) => linkStory(plan, start, latest, number));
    for (const story of stories) {
      const start = at();
      n += 1;
      if (start <= latest) steps.push(...story(start, n));
    }
  }
  const staleDay = todayStart - Math.max(1, Math.round(options.days / 3)) * dayMs;
  steps.push(...staleSubscriptionSteps(plan, staleDay + 9 * hourMs, staleDay + 17 * hourMs));
  // A paid charge or two while the stale subscription is there, whatever the day's draw.
  for (const hour of [11, 15]) {
    n += 1;
    steps.push(...pixStory(plan, staleDay + hour * hourMs, latest, n, true));
  }
  return steps.sort((a, b) => a.at - b.at);
}

async function waitForDeliveries(timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const latest = new Map<string, string>();
    for (const attempt of await listSandboxDeliveryAttempts()) latest.set(attempt.deliveryId, attempt.outcome);
    const pending = [...latest.values()].filter((outcome) => outcome === "queued" || outcome === "retry").length;
    if (pending === 0 || Date.now() > deadline) return pending;
    await sleep(500);
  }
}

// For the drift view, two paid charges the gateway holds otherwise, with no event: one it shows unpaid (the mirror
// moves back at the reconciliation that follows) and one whose amount changed (held for a person to review).
async function changeChargesAtGateway(counts: TCounts): Promise<void> {
  const [unpaid, changed] = await db.pixCharge.findMany({
    where: { status: "PAID", refundedCents: 0 },
    orderBy: { creationDate: "desc" },
    take: 2,
  });
  if (unpaid) {
    await tamperPixChargeAtSandbox(unpaid.txid, { status: "ACTIVE" });
    count(counts, "driftUnpaidAtGateway");
  }
  if (changed) {
    await tamperPixChargeAtSandbox(changed.txid, { amountCents: changed.amountCents + 1_000 });
    count(counts, "driftAmountChanged");
  }
}

export async function seedDemoHistory(
  options: THistoryOptions,
  print: (line: string) => void = console.log,
): Promise<{ status: "seeded" | "already"; history: THistoryFile }> {
  const file = options.file ?? demoHistoryFile;
  const previous = readDemoHistory(file);
  if (previous) return { status: "already", history: previous };
  const days = options.days ?? 30;
  const startedAt = Date.now();
  const counts: TCounts = {};
  const random = prng(options.seed ?? 27);
  const plan = { random, counts, pos: options.pos, appUrl: options.appUrl };
  const steps = planHistory(plan, { days, scale: options.scale ?? 1, now: options.now ?? new Date() });
  print(`\n==> Seeding ${days} days of history (${steps.length} steps at the sandbox, its clock moved to each)`);
  const stopHost = await startDemoHost(options.appUrl);
  // Hundreds of gateway calls would bury the demo's own output; warnings still show.
  const level = log.level;
  log.level = "warn";
  let pending = 0;
  try {
    try {
      for (const [index, step] of steps.entries()) {
        await setSandboxClock(new Date(step.at));
        await step.run();
        if ((index + 1) % 100 === 0) print(`    ${index + 1}/${steps.length}`);
      }
    } finally {
      await setSandboxClock(null);
    }
    pending = await waitForDeliveries(60_000);
    await changeChargesAtGateway(counts);
    const reconciled = await runReconciliation({ trigger: "manual", windowHours: (days + 2) * 24 });
    if (reconciled.status === "finished") counts.reconciliationHealed = reconciled.run.healedCount;
    await runPosMatching();
    await refreshOverviewDays();
  } finally {
    log.level = level;
    // The dashboard starts on this port next, whatever happened above.
    await stopHost();
  }
  counts.webhookDeliveries = await db.webhookDelivery.count();
  counts.webhookDeliveriesRefused = await db.webhookDelivery.count({ where: { outcome: "REJECTED_SIGNATURE" } });
  const resourceCounts = [
    "pixCharges",
    "pixRefundsFull",
    "pixRefundsPartial",
    "cardPaymentsApproved",
    "cardPaymentsRefused",
    "posSalesApproved",
    "posSalesRefused",
    "links",
  ];
  const history: THistoryFile = {
    version: historyVersion,
    seededAt: new Date().toISOString(),
    days,
    durationMs: Date.now() - startedAt,
    resources: resourceCounts.reduce((sum, name) => sum + (counts[name] ?? 0), 0),
    counts,
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(history, null, 2));
  if (pending > 0) print(`    ${pending} webhook deliveries still pending at the sandbox; the dashboard receives them`);
  return { status: "seeded", history };
}
