import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { AppError } from "./errors";
import { englishErrorText } from "./i18n/error-text";
import en from "./i18n/messages/en.json";
import ptBR from "./i18n/messages/pt-BR.json";

// An AppError's message is a catalog key the UI translates (docs/errors.md). TMessageKey checks the argument's type;
// this reads every construction in the source, so a sentence (or a key only one language has) fails here too.

const rootDir = path.resolve(import.meta.dirname, "..");
const sourceDirs = ["app", "lib", "components"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "generated" || entry.name === "node_modules" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The text of the call's second argument: from after the first top-level comma to the next one (or the end). */
function secondArgument(source: string, openParen: number): string {
  let depth = 0;
  let start = -1;
  let quote: string | null = null;
  for (let index = openParen; index < source.length; index++) {
    const char = source[index]!;
    if (quote) {
      if (char === "\\") index++;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === '"' || char === "'" || char === "`") quote = char;
    else if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) {
      depth--;
      if (depth === 0) return start < 0 ? "" : source.slice(start, index);
    } else if (char === "," && depth === 1) {
      if (start >= 0) return source.slice(start, index);
      start = index + 1;
    }
  }
  return "";
}

type TConstruction = { at: string; argument: string };

function constructions(): TConstruction[] {
  const found: TConstruction[] = [];
  for (const file of sourceDirs.flatMap((dir) => sourceFiles(path.join(rootDir, dir)))) {
    const source = readFileSync(file, "utf8");
    const subclass = /extends AppError\b/.test(source);
    for (const match of source.matchAll(subclass ? /new AppError\(|super\(/g : /new AppError\(/g)) {
      const openParen = match.index + match[0].length - 1;
      const line = source.slice(0, openParen).split("\n").length;
      found.push({ at: `${path.relative(rootDir, file)}:${line}`, argument: secondArgument(source, openParen).trim() });
    }
  }
  return found;
}

const lookup = (messages: unknown, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);

describe("AppError messages", () => {
  const all = constructions();

  it("finds the constructions it checks", () => {
    expect(all.length).toBeGreaterThan(100);
  });

  it("are catalog keys in pt-BR and en, never sentences", () => {
    const problems: string[] = [];
    for (const { at, argument } of all) {
      // A literal compared in a condition (`kind === "x" ? … : …`) is not a message.
      for (const { 1: literal, index } of argument.matchAll(/"([^"\\]*)"/g)) {
        if (/[=!]==\s*$/.test(argument.slice(0, index))) continue;
        if (typeof lookup(en, literal!) !== "string" || typeof lookup(ptBR, literal!) !== "string")
          problems.push(`${at}: "${literal}" is not a message of both catalogs`);
      }
      // A key built from a name: its fixed part must be a namespace of both catalogs.
      for (const [, prefix] of argument.matchAll(/`([^`$]*)\$\{/g)) {
        const namespace = prefix!.replace(/\.$/, "");
        if (typeof lookup(en, namespace) !== "object" || typeof lookup(ptBR, namespace) !== "object")
          problems.push(`${at}: \`${prefix}…\` does not name a catalog namespace`);
      }
      if (/`[^`]*\s[^`]*`/.test(argument)) problems.push(`${at}: a template with spaces reads as a sentence`);
    }
    expect(problems).toEqual([]);
  });

  it("carry the key, its params and the code, and read in English for API clients", () => {
    const error = new AppError("UNPROCESSABLE", "pix.refunds.errors.exceedsRemainingFullyRefunded", {
      params: { remaining: 0 },
    });
    expect(error).toMatchObject({ code: "UNPROCESSABLE", status: 422, message: error.messageKey });
    expect(englishErrorText(error)).toBe(
      "The amount exceeds the remaining refundable R$0.00: the charge is refunded in full.",
    );
  });
});
