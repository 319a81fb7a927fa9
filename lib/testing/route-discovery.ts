import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

// The route × role matrix (lib/auth/route-matrix.ts) must name everything listed here.

export type TDiscoveredPage = { kind: "page"; key: string; path: string; file: string };
export type TDiscoveredRoute = { kind: "route"; key: string; method: string; path: string; file: string };
export type TDiscoveredAction = { kind: "action"; key: string; name: string; file: string };
export type TDiscoveredEntry = TDiscoveredPage | TDiscoveredRoute | TDiscoveredAction;

const httpMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const sourceExtension = /\.(ts|tsx|js|jsx|mjs)$/;
const actionRoots = ["app", "lib", "components"];
const skippedFolders = new Set(["node_modules", "generated", ".next"]);

function listFiles(dir: string): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return skippedFolders.has(entry.name) ? [] : listFiles(full);
    return sourceExtension.test(entry.name) ? [full] : [];
  });
}

function toPosix(file: string, rootDir: string): string {
  return path.relative(rootDir, file).split(path.sep).join("/");
}

function urlPathOf(relativeDir: string): string | null {
  const segments = relativeDir.split("/").filter(Boolean);
  if (segments.some((segment) => segment.startsWith("_"))) return null;
  const kept = segments.filter((segment) => !/^\(.+\)$/.test(segment) && !segment.startsWith("@"));
  return `/${kept.join("/")}`;
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
}

function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function exportedValueNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && hasExportModifier(statement) && statement.name) {
      names.push(statement.name.text);
    } else if (ts.isVariableStatement(statement) && hasExportModifier(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
      }
    } else if (ts.isClassDeclaration(statement) && hasExportModifier(statement) && statement.name) {
      names.push(statement.name.text);
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      if (!statement.exportClause) throw new Error(`${source.fileName}: "export *" hides what it exports`);
      if (ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) if (!element.isTypeOnly) names.push(element.name.text);
      }
    } else if (ts.isExportAssignment(statement)) {
      names.push("default");
    }
  }
  return names;
}

function isDirective(statement: ts.Statement, text: string): boolean {
  return (
    ts.isExpressionStatement(statement) &&
    ts.isStringLiteral(statement.expression) &&
    statement.expression.text === text
  );
}

function hasTopLevelDirective(source: ts.SourceFile, text: string): boolean {
  for (const statement of source.statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isStringLiteral(statement.expression)) return false;
    if (isDirective(statement, text)) return true;
  }
  return false;
}

export function discoverPages(rootDir: string): TDiscoveredPage[] {
  const appDir = path.join(rootDir, "app");
  return listFiles(appDir)
    .filter((file) => /^page\.(tsx|ts|jsx|js)$/.test(path.basename(file)))
    .flatMap((file) => {
      const urlPath = urlPathOf(toPosix(path.dirname(file), appDir));
      return urlPath === null
        ? []
        : [{ kind: "page" as const, key: urlPath, path: urlPath, file: toPosix(file, rootDir) }];
    });
}

export function discoverRouteHandlers(rootDir: string): TDiscoveredRoute[] {
  const appDir = path.join(rootDir, "app");
  return listFiles(appDir)
    .filter((file) => /^route\.(ts|tsx|js|jsx)$/.test(path.basename(file)))
    .flatMap((file) => {
      const urlPath = urlPathOf(toPosix(path.dirname(file), appDir));
      if (urlPath === null) return [];
      return exportedValueNames(parse(file))
        .filter((name) => httpMethods.has(name))
        .map((method) => ({
          kind: "route" as const,
          key: `${method} ${urlPath}`,
          method,
          path: urlPath,
          file: toPosix(file, rootDir),
        }));
    });
}

// A "use server" inside a function body cannot be listed by export, so it is refused.
export function discoverServerActions(rootDir: string): TDiscoveredAction[] {
  const found: TDiscoveredAction[] = [];
  for (const root of actionRoots) {
    for (const file of listFiles(path.join(rootDir, root))) {
      if (/\.test\.[jt]sx?$/.test(file)) continue;
      const text = readFileSync(file, "utf8");
      if (!/["']use server["']/.test(text)) continue;
      const source = parse(file);
      const relative = toPosix(file, rootDir);
      if (!hasTopLevelDirective(source, "use server")) {
        if (/^\s*["']use server["']/m.test(text)) {
          throw new Error(
            `${relative}: inline "use server" actions cannot be enumerated; move them to an actions module`,
          );
        }
        continue;
      }
      for (const name of exportedValueNames(source)) {
        found.push({ kind: "action", key: `${relative}#${name}`, name, file: relative });
      }
    }
  }
  return found;
}

export function discoverEntries(rootDir: string): TDiscoveredEntry[] {
  return [...discoverPages(rootDir), ...discoverRouteHandlers(rootDir), ...discoverServerActions(rootDir)];
}

export type TMatrixTables = {
  pages: Record<string, unknown>;
  routes: Record<string, unknown>;
  actions: Record<string, unknown>;
};

export function compareWithMatrix(
  entries: TDiscoveredEntry[],
  tables: TMatrixTables,
): { unlisted: string[]; stale: string[] } {
  const tableOf = { page: tables.pages, route: tables.routes, action: tables.actions };
  const unlisted = entries.filter((entry) => !Object.hasOwn(tableOf[entry.kind], entry.key));
  const found = new Set(entries.map((entry) => `${entry.kind} ${entry.key}`));
  const stale = Object.entries(tableOf).flatMap(([kind, table]) =>
    Object.keys(table)
      .filter((key) => !found.has(`${kind} ${key}`))
      .map((key) => `${kind} ${key}`),
  );
  return { unlisted: unlisted.map((entry) => `${entry.kind} ${entry.key} (${entry.file})`), stale };
}
