import { ensureCerts } from "@/sandbox/certs/certs";
import { testCertsDir } from "@/sandbox/test/harness";

// Every client certificate the tests ask the harness for (startSandbox({ clients })). Made once, before files run
// in parallel: two files creating the same missing pair at once could leave a certificate beside the other's key.
const testClients = ["merchant-3"];

export async function ensureTestCerts(dir = testCertsDir): Promise<void> {
  await ensureCerts(dir, testClients);
}

// The `sandbox` project's global setup.
export default async function setup(): Promise<void> {
  await ensureTestCerts();
}
