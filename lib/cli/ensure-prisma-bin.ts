// Prisma 7 and the `prisma6` alias (offline `migrate diff`) both declare a `prisma` bin and npm links whichever it
// meets first, so after every install point `node_modules/.bin/prisma` at Prisma 7.
import { readlinkSync, rmSync, symlinkSync } from "node:fs";

const link = "node_modules/.bin/prisma";
const target = "../prisma/build/index.js";

function currentTarget(): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined;
  }
}

if (currentTarget() !== target) {
  rmSync(link, { force: true });
  symlinkSync(target, link);
}
