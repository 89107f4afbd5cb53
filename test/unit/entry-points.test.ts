import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/paths.js';

// Each entry point has one job (package.json "exports"); they are imported here by name, as a user
// imports them, so the package's own exports map is what resolves them.
const ENTRY_POINTS = {
  stint: 'src/index.ts',
  'stint/worker': 'src/worker.ts',
  'stint/client': 'src/client/index.ts',
  'stint/contract': 'src/contract/index.ts',
} as const;

test('each entry point resolves by name and holds what its job needs, and no engine internals', async () => {
  const holds = (entry: object, names: readonly string[]) => names.filter((name) => !(name in entry));
  const stint = await import('stint');
  assert.deepEqual(holds(stint, ['defineCommand', 'createProgram', 'runCli', 'processFile', 'Framing', 'StintError']), []);
  const internals = ['runChunked', 'openChunkPool', 'defaultWorkerCount', 'buildEnvelope'];
  assert.deepEqual(internals.filter((name) => name in stint), [], 'no engine internals');
  const worker = await import('stint/worker');
  assert.deepEqual(Object.keys(worker).sort(), ['ErrorCode', 'ExitCode', 'StintError', 'defineErrorCodes', 'defineWarningCodes']);
  const client = await import('stint/client');
  assert.deepEqual(holds(client, ['continueUntilDone', 'ExitCode', 'IncompleteState', 'RunStatus', 'StopLimit', 'Coverage']), []);
  const contract = await import('stint/contract');
  assert.deepEqual(holds(contract, ['ExitCode', 'STANDARD_EXIT_CODES', 'buildEnvelope', 'ErrorCode', 'JobState']), []);
});

const BUILD_SRC = join(REPO_ROOT, 'build', 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)(?:[^'"]*?from)?\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const runtimeImportsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);

test("stint/worker's module graph reaches only the contract and the worker protocol", () => {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImportsOf(file)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else assert.match(specifier, /^node:/, `${relative(BUILD_SRC, file)} imports the package ${specifier}`);
    }
  };
  visit(join(BUILD_SRC, 'worker.js'));
  const outside = [...seen].map((file) => relative(BUILD_SRC, file))
    .filter((file) => file !== 'worker.js' && !file.startsWith('contract/')
      && file !== 'engine/worker/worker-protocol.js');
  assert.deepEqual(outside, []);
  assert.ok(seen.size > 1, 'the graph was followed');
});

test('every export of every entry point is documented', () => {
  const files = Object.values(ENTRY_POINTS).map((file) => join(REPO_ROOT, file));
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true, skipLibCheck: true, types: [],
  };
  const program = ts.createProgram(files, options);
  const checker = program.getTypeChecker();
  const undocumented: string[] = [];
  for (const [entry, file] of Object.entries(ENTRY_POINTS)) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(join(REPO_ROOT, file))!)!;
    const exported = checker.getExportsOfModule(module);
    assert.ok(exported.length > 0, `${entry} has exports`);
    for (const symbol of exported) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const documented = (target.declarations ?? []).some((node) => ts.getJSDocCommentsAndTags(node).length > 0);
      if (!documented) undocumented.push(`${entry}: ${symbol.name}`);
    }
  }
  assert.deepEqual(undocumented, []);
});
