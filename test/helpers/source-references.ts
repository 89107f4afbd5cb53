import { posix } from 'node:path';
import ts from 'typescript';

/** How one source file names another: each is a dependency the layering rules judge. */
export const ReferenceKind = {
  Import: 'import',
  Export: 'export',
  SideEffect: 'side-effect',
  Dynamic: 'dynamic import',
  Url: 'new URL',
} as const;
export type ReferenceKind = (typeof ReferenceKind)[keyof typeof ReferenceKind];

/** One reference: `target` is a path under the source root for a relative one, else the package's name. */
export interface Reference {
  readonly kind: ReferenceKind;
  readonly target: string;
  readonly relative: boolean;
}

/** Source files by their path under the source root (posix separators), each with its text. */
export type SourceFiles = ReadonlyMap<string, string>;

const EMITTED_AS: Readonly<Record<string, string>> = { '.js': '.ts', '.cjs': '.cts', '.mjs': '.mts' };

/** The source a relative specifier names: `./x.js` is `x.ts` when that file is among the sources. */
function resolveTarget(from: string, specifier: string, files: SourceFiles): string {
  const joined = posix.normalize(posix.join(posix.dirname(from), specifier));
  const ext = posix.extname(joined);
  const source = EMITTED_AS[ext] === undefined ? undefined : joined.slice(0, -ext.length) + EMITTED_AS[ext];
  return source !== undefined && files.has(source) ? source : joined;
}

const isImportMetaUrl = (node: ts.Node): boolean =>
  ts.isPropertyAccessExpression(node) && node.name.text === 'url' && ts.isMetaProperty(node.expression);

/** The specifier a node names, and how, when it is one of the references the rules judge. */
function specifierOf(node: ts.Node): { kind: ReferenceKind; text: string } | undefined {
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
    const kind = node.importClause ? ReferenceKind.Import : ReferenceKind.SideEffect;
    return { kind, text: node.moduleSpecifier.text };
  }
  if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
    return { kind: ReferenceKind.Export, text: node.moduleSpecifier.text };
  }
  const [first, second] = ts.isCallExpression(node) || ts.isNewExpression(node) ? node.arguments ?? [] : [];
  if (first === undefined || !ts.isStringLiteralLike(first)) return undefined;
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    return { kind: ReferenceKind.Dynamic, text: first.text };
  }
  const isUrl = ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL';
  if (isUrl && second !== undefined && isImportMetaUrl(second)) return { kind: ReferenceKind.Url, text: first.text };
  return undefined;
}

/** Every reference in one file, parsed with the TypeScript compiler (not matched by patterns). */
export function referencesOf(path: string, files: SourceFiles): Reference[] {
  const text = files.get(path) ?? '';
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Reference[] = [];
  const visit = (node: ts.Node): void => {
    const named = specifierOf(node);
    if (named) {
      const relative = named.text.startsWith('.');
      const target = relative ? resolveTarget(path, named.text, files) : named.text;
      found.push({ kind: named.kind, relative, target });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
