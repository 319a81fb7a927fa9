import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import forge from "node-forge";

// A dev PKI in pure JS (no openssl CLI): one CA, the server pair and client pairs whose
// certificate CN is the client id that owns every resource it creates.
const defaultClients = ["merchant", "merchant-2"] as const;

type KeyPair = { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey };

const validityYears = 5;

function serialNumber(): string {
  // Positive 16-byte serial: a leading 0x01 byte keeps the DER integer positive.
  return `01${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
}

function newCertificate(commonName: string, publicKey: forge.pki.rsa.PublicKey): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(Date.now() - 24 * 60 * 60 * 1000);
  cert.validity.notAfter = new Date();
  cert.validity.notAfter.setFullYear(cert.validity.notBefore.getFullYear() + validityYears);
  cert.setSubject([
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "Payments Gateway Sandbox" },
  ]);
  return cert;
}

function generateKeys(): forge.pki.rsa.KeyPair {
  return forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
}

function createCa(): KeyPair {
  const keys = generateKeys();
  const cert = newCertificate("Payments Gateway Sandbox Dev CA", keys.publicKey);
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { cert, key: keys.privateKey };
}

function issue(ca: KeyPair, commonName: string, kind: "server" | "client"): KeyPair {
  const keys = generateKeys();
  const cert = newCertificate(commonName, keys.publicKey);
  cert.setIssuer(ca.cert.subject.attributes);
  const extensions: object[] = [
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: kind === "server", clientAuth: kind === "client" },
    { name: "authorityKeyIdentifier", keyIdentifier: ca.cert.generateSubjectKeyIdentifier().getBytes() },
  ];
  if (kind === "server") {
    extensions.push({
      name: "subjectAltName",
      altNames: [
        { type: 2, value: "localhost" },
        { type: 7, ip: "127.0.0.1" },
      ],
    });
  }
  cert.setExtensions(extensions);
  cert.sign(ca.key, forge.md.sha256.create());
  return { cert, key: keys.privateKey };
}

async function writePair(dir: string, name: string, pair: KeyPair): Promise<void> {
  await writeFile(path.join(dir, `${name}-key.pem`), forge.pki.privateKeyToPem(pair.key), { mode: 0o600 });
  await writeFile(path.join(dir, `${name}.pem`), forge.pki.certificateToPem(pair.cert));
}

async function loadOrCreateCa(dir: string): Promise<KeyPair> {
  const certPath = path.join(dir, "ca.pem");
  const keyPath = path.join(dir, "ca-key.pem");
  if (existsSync(certPath) && existsSync(keyPath)) {
    return {
      cert: forge.pki.certificateFromPem(await readFile(certPath, "utf8")),
      key: forge.pki.privateKeyFromPem(await readFile(keyPath, "utf8")),
    };
  }
  const ca = createCa();
  await writePair(dir, "ca", ca);
  return ca;
}

function hasPair(dir: string, name: string): boolean {
  return existsSync(path.join(dir, `${name}.pem`)) && existsSync(path.join(dir, `${name}-key.pem`));
}

function isValidClientName(name: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,62}$/i.test(name) && name !== "ca" && name !== "sandbox";
}

/** Creates whatever is missing under `dir` (CA, server pair, default clients, extra clients); keeps existing files. */
export async function ensureCerts(dir: string, extraClients: readonly string[] = []): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const created: string[] = [];
  const ca = await loadOrCreateCa(dir);
  if (!hasPair(dir, "sandbox")) {
    await writePair(dir, "sandbox", issue(ca, "localhost", "server"));
    created.push("sandbox");
  }
  for (const name of [...defaultClients, ...extraClients]) {
    if (!isValidClientName(name)) throw new Error(`Invalid client name: ${name}`);
    if (hasPair(dir, name)) continue;
    await writePair(dir, name, issue(ca, name, "client"));
    created.push(name);
  }
  return created;
}

/** A throw-away CA and client pair that the sandbox does not trust (for handshake-refusal tests). */
export function createForeignClientPair(name: string): { cert: string; key: string } {
  const pair = issue(createCa(), name, "client");
  return { cert: forge.pki.certificateToPem(pair.cert), key: forge.pki.privateKeyToPem(pair.key) };
}
