// No database access: the demo's PGlite admits one process, and the running dashboard holds it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

export const ZDemoPosFile = z.object({
  baseUrl: z.url(),
  apiKey: z.string().min(1),
  tenantId: z.string(),
  sellerToken: z.object({ algorithm: z.literal("HS256"), secret: z.string().min(1), audience: z.string().min(1) }),
  sellerReference: z.string().min(1),
  posId: z.string().min(1),
});
export type TDemoPosSettings = z.infer<typeof ZDemoPosFile>;

export function readDemoPosSettings(file = path.resolve(".data/demo/pos.json")): TDemoPosSettings {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new Error(`${file} is missing: run \`npm run demo\` once first.`);
  }
  const parsed = ZDemoPosFile.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not what \`npm run demo\` writes: ${parsed.error.message}`);
  return parsed.data;
}

export function optionOf(args: string[], name: string): string | undefined {
  const index = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (index < 0) return undefined;
  const arg = args[index]!;
  return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[index + 1];
}
