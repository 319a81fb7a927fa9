// `npm run bench:body-caps -- --url=… --pid=<server pid>`: memory a server gains from unauthenticated oversized posts
// (docs/security.md): `--posts` (4) × `--mib` (128) MiB, half chunked; prints RSS before, at peak and after.
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { request } from "undici";
import { parentOf, processIds } from "./proc-stats";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:3000" },
    pid: { type: "string" },
    posts: { type: "string", default: "4" },
    mib: { type: "string", default: "128" },
    path: { type: "string", default: "/api/auth/callback/credentials" },
  },
});
if (!values.pid) throw new Error("--pid=<the server's pid> is required (e.g. pgrep -f 'next-server')");
const serverPid = Number(values.pid);
const posts = Number(values.posts);
const bodyBytes = Number(values.mib) * 1024 * 1024;
const chunk = new Uint8Array(64 * 1024).fill(0x61);

function treeOf(rootPid: number): number[] {
  const all = processIds();
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const pid of all)
      if (!tree.has(pid) && tree.has(parentOf(pid))) {
        tree.add(pid);
        grew = true;
      }
  }
  return [...tree];
}

// VmRSS of the server and everything it started (next start runs the server in a child), in MiB.
function rssMib(): number {
  let kib = 0;
  for (const pid of treeOf(serverPid)) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kib += Number(match?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kib / 1024;
}

async function* generatedBody(): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < bodyBytes; sent += chunk.byteLength) yield chunk.subarray(0, bodyBytes - sent);
}

async function oversizedPost(declared: boolean): Promise<string> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (declared) headers["content-length"] = String(bodyBytes);
  try {
    const response = await request(new URL(values.path, values.url), {
      method: "POST",
      headers,
      body: Readable.from(generatedBody()),
    });
    await response.body.dump();
    return String(response.statusCode);
  } catch (error) {
    // The server may answer 413 and close before the whole body was sent.
    return `closed (${(error as { code?: string }).code ?? (error as Error).message})`;
  }
}

const before = rssMib();
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMib());
}, 50);
const startedAt = performance.now();
const answers = await Promise.all(Array.from({ length: posts }, (_, index) => oversizedPost(index % 2 === 0)));
const seconds = (performance.now() - startedAt) / 1000;
await new Promise((resolve) => setTimeout(resolve, 2000));
clearInterval(sampler);
const after = rssMib();
peak = Math.max(peak, after);

console.log(`${posts} × ${values.mib} MiB posts to ${values.path} in ${seconds.toFixed(1)} s: ${answers.join(", ")}`);
console.log(`server RSS before ${before.toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB, after ${after.toFixed(1)} MiB`);
console.log(`growth: ${(peak - before).toFixed(1)} MiB at peak, ${(after - before).toFixed(1)} MiB after (goal: < 20)`);
