import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { rootDir } from "./targets";

// Calls a server action the way a browser's form does (the Next-Action header and the build's action id), without the
// page that offers it: what someone who skips the UI would send.
type TActionManifest = { node: Record<string, { filename: string; exportedName: string }> };

function actionIdOf(file: string, name: string): string {
  const manifest = JSON.parse(
    readFileSync(path.join(rootDir, ".next/server/server-reference-manifest.json"), "utf8"),
  ) as TActionManifest;
  const found = Object.entries(manifest.node).find(
    ([, entry]) => entry.filename === file && entry.exportedName === name,
  );
  if (!found) throw new Error(`No server action ${file}#${name} in the build`);
  return found[0];
}

export async function callServerAction(
  request: APIRequestContext,
  baseURL: string,
  action: { file: string; name: string; pagePath: string },
  input: unknown,
): Promise<string> {
  const response = await request.post(action.pagePath, {
    headers: {
      "next-action": actionIdOf(action.file, action.name),
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      origin: baseURL,
    },
    data: JSON.stringify([input]),
    maxRedirects: 0,
  });
  return response.text();
}
