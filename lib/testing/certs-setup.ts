import { ensureCerts } from "@/sandbox/certs/certs";
import { testCertsDir } from "@/sandbox/test/harness";

// Made once, before files run in parallel: two files making one missing pair at once could mismatch cert and key.
const testClients = ["merchant-3"];

export async function ensureTestCerts(dir = testCertsDir): Promise<void> {
  await ensureCerts(dir, testClients);
}

export default async function setup(): Promise<void> {
  await ensureTestCerts();
}
