// `npm run pos:simulate [-- --seller <ref>] [--pos <posId>] [--amount <cents>] [--installments <n>] [--decline]`:
// one whole sale through the TypeScript client against the running app (npm run demo).
import { BackendError, HttpBackend, PosClient, SimulatedPaymentApp } from "@/lib/pos-sdk";
import { signSellerToken } from "@/lib/pos-sdk/testing/seller-token";
import { optionOf, readDemoPosSettings } from "./pos-demo-file";

const step = (title: string, detail: unknown) => console.log(`\n==> ${title}\n${JSON.stringify(detail, null, 2)}`);

async function main() {
  const args = process.argv.slice(2);
  const settings = readDemoPosSettings();
  const amountInCents = Number(optionOf(args, "amount") ?? 2590);
  const installments = Number(optionOf(args, "installments") ?? 1);
  const backend = new HttpBackend({ apiKey: settings.apiKey, baseUrl: settings.baseUrl, timeoutMs: 10_000 });
  const client = new PosClient({
    apiKey: settings.apiKey,
    backend,
    logger: {
      info: (message, data) => step(message, data),
      error: (message, data) => console.error(`\n!!! ${message}\n${JSON.stringify(data, null, 2)}`),
    },
  });
  console.log(`POS client against ${backend.baseUrl}`);

  let posId = optionOf(args, "pos");
  if (!posId) {
    const reference = optionOf(args, "seller") ?? settings.sellerReference;
    const token = await signSellerToken(settings.sellerToken, reference);
    step("1. activate seller (POST /v1/sellers/activate, fresh seller token)", { sellerReference: reference });
    const activation = await client.activate(token);
    step("   activated", activation);
    posId = activation.posId;
  }
  // The config holds a secret (tokenRegistroTls): the client's own log line shows only what is safe.
  step("2. sale: config (GET /v1/transactions/config), payment application, report (POST /v1/transactions)", {
    posId,
    amountInCents,
    installments,
  });
  const sale = await client.sale({
    posId,
    amountInCents,
    installments,
    paymentApp: new SimulatedPaymentApp({ outcome: args.includes("--decline") ? "decline" : "approve" }),
  });
  step("3. result returned to the app", {
    approved: sale.payment.approved,
    isReported: sale.isReported,
    report: sale.report,
  });
  if (!sale.isReported) process.exitCode = 2;
}

main().catch((error: unknown) => {
  if (error instanceof BackendError) console.error(`\nBackendError status ${error.status}: ${error.detail}`);
  else console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
