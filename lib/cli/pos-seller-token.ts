// `npm run pos:seller-token -- --seller <reference> [--ttl <seconds>]`, from .data/demo/pos.json only.
import { signSellerToken } from "@/lib/pos-sdk/testing/seller-token";
import { optionOf, readDemoPosSettings } from "./pos-demo-file";

async function main() {
  const args = process.argv.slice(2);
  const settings = readDemoPosSettings();
  const reference = optionOf(args, "seller") ?? settings.sellerReference;
  const ttl = Number(optionOf(args, "ttl") ?? 300);
  if (!Number.isInteger(ttl) || ttl <= 0 || ttl > 86_400) throw new Error("--ttl: seconds, 1 to 86400");
  const token = await signSellerToken(settings.sellerToken, reference, { expiresInSeconds: ttl });
  process.stdout.write(`${token}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
