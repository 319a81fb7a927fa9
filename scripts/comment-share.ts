// `npm run comments`: the share of comment lines in lib's non-test TypeScript, in total and per top-level entry of
// lib, failing above a limit (`--max=5`, in percent). Comments should say why; a high share is mostly ones that
// restate the code. A comment line is a non-blank line that holds a comment (`//`, or any line of a `/* … */` block,
// JSDoc included), found by the TypeScript parser so `//` inside strings, regexes and templates does not count.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = process.cwd();
const libDir = path.join(root, "lib");
const maxArg = process.argv.slice(2).find((arg) => arg.startsWith("--max="));
const maxPercent = maxArg ? Number(maxArg.slice("--max=".length)) : 5;
if (!Number.isFinite(maxPercent)) {
  console.error(`comment-share: --max wants a number (percent), got ${maxArg}`);
  process.exit(2);
}

function isCounted(file: string): boolean {
  return /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file);
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // Prisma's generated client is not ours to comment.
      if (full !== path.join(libDir, "generated") && entry.name !== "node_modules") yield* sourceFiles(full);
    } else if (isCounted(entry.name)) yield full;
  }
}

type TCount = { comment: number; nonBlank: number };

function countFile(file: string): TCount {
  const text = readFileSync(file, "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const commentLines = new Set<number>();
  const seen = new Set<number>();
  const mark = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const first = source.getLineAndCharacterOfPosition(range.pos).line;
      const last = source.getLineAndCharacterOfPosition(range.end).line;
      for (let line = first; line <= last; line++) commentLines.add(line);
    }
  };
  // Every comment is trivia before some token: walking the tokens as well as the nodes finds the ones before a
  // closing brace, which belong to no node. Same-line comments are trailing trivia of the token before them, except
  // before JSX text, where `//` is text. JSDoc is found as trivia, and its own nodes are not walked.
  const visit = (node: ts.Node) => {
    mark(ts.getLeadingCommentRanges(text, node.pos));
    const children = node.getChildren(source).filter((child) => !ts.isJSDoc(child));
    children.forEach((child, index) => {
      if (child.kind === ts.SyntaxKind.JsxText) return;
      visit(child);
      if (children[index + 1]?.kind !== ts.SyntaxKind.JsxText) mark(ts.getTrailingCommentRanges(text, child.end));
    });
  };
  visit(source);
  mark(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  const lines = text.split("\n");
  let nonBlank = 0;
  let comment = 0;
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    nonBlank++;
    if (commentLines.has(index)) comment++;
  });
  return { comment, nonBlank };
}

const byDir = new Map<string, TCount>();
const total: TCount = { comment: 0, nonBlank: 0 };
for (const file of sourceFiles(libDir)) {
  const relative = path.relative(libDir, file).split(path.sep);
  const key = `lib/${relative[0]}`;
  const count = countFile(file);
  const entry = byDir.get(key) ?? { comment: 0, nonBlank: 0 };
  entry.comment += count.comment;
  entry.nonBlank += count.nonBlank;
  byDir.set(key, entry);
  total.comment += count.comment;
  total.nonBlank += count.nonBlank;
}

const percent = ({ comment, nonBlank }: TCount) => (nonBlank === 0 ? 0 : (100 * comment) / nonBlank);
const row = (name: string, count: TCount) =>
  `${name.padEnd(24)} ${percent(count).toFixed(1).padStart(5)} %  ${String(count.comment).padStart(5)} / ${count.nonBlank}`;

for (const [name, count] of [...byDir].sort(([a], [b]) => a.localeCompare(b))) console.log(row(name, count));
console.log(row("total", total));
if (percent(total) > maxPercent) {
  console.error(
    `Comments are ${percent(total).toFixed(2)} % of lib's non-blank lines, above the ${maxPercent} % limit.`,
  );
  process.exitCode = 1;
}
