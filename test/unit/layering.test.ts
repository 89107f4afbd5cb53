import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { REPO_ROOT } from '../helpers/paths.js';

// Imports flow one way: contract <- runtime <- engine <- commands; client
// sees the contract only (so `stint follow`, a command, may use it); bin sits on top. Worker-side files import only the
// contract and engine worker helpers. This test reads src/ and keeps it so.
const RANK: Record<string, number> = { contract: 0, runtime: 1, engine: 2, program: 3, commands: 3, client: 3, bin: 4 };
const SRC = join(REPO_ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : /\.c?ts$/.test(entry.name) ? [path] : [];
  });
}

const layerOf = (file: string): string => relative(SRC, file).split('/')[0]!;
const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)]
    .map((m) => resolve(dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, '.ts'));

test('imports flow one way between layers', () => {
  const violations: string[] = [];
  for (const file of sources(SRC)) {
    const from = layerOf(file);
    if (!(from in RANK)) continue; // index.ts, worker.ts: entry points re-export layers (entry-points.test.ts)
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      const allowed = from === 'client' ? to === 'contract' || to === 'client' : RANK[to]! <= RANK[from]!;
      if (!allowed) violations.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('no import cycles', () => {
  const graph = new Map(sources(SRC).map((file) => [file, importsOf(file)]));
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => relative(SRC, f)).join(' -> '));
      return;
    }
    state.set(file, 'visiting');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});

// Worker-side modules run on the pool's threads: the thread entry and every handler's map module (a
// module exporting `map` or `mapWindow`), and all they import. They import only these, and no package:
const WORKER_ALLOWED: Readonly<Record<string, string>> = {
  'contract/': 'pure codes, errors and vocabularies',
  'engine/worker/worker-start.cts': "the thread's entry",
  'engine/worker/worker-entry.ts': 'the task handler the entry loads',
  'engine/worker/worker-protocol.ts': 'the messages between the threads (types)',
  'engine/worker/chunk-reader.ts': "reads and frames one chunk of the file",
  'engine/worker/framing.ts': 'where records start, over bytes',
  'engine/worker/csv-records.ts': 'the CSV record parser window maps share',
  'engine/worker/packed-output.ts': 'the packed buffer a map fills',
  'commands/stint-codes.ts': "stint's own declared codes (contract only), which its maps raise",
};
/**
 * A map module's own folder (and its subfolders, e.g. analyze/stats/) holds its pure helpers; they are
 * worker-side too, so the same rule holds for them.
 */
const sameCommand = (from: string, to: string): boolean =>
  from.startsWith('commands/') && (dirname(from) === dirname(to) || dirname(to).startsWith(`${dirname(from)}/`));
const isMapModule = (file: string): boolean =>
  /^export (?:async )?function (?:map|mapWindow)\b/m.test(readFileSync(file, 'utf8'));
const PACKAGE_IMPORT = /(?:^|\n)\s*(?:import|export)(?:[^'"]*?from)?\s*['"]([^.'"][^'"]*)['"]/g;
const allowedOnWorker = (from: string, to: string): boolean =>
  Object.keys(WORKER_ALLOWED).some((prefix) => to === prefix || (prefix.endsWith('/') && to.startsWith(prefix)))
  || sameCommand(from, to);

test('worker-side modules import only the contract and the worker helpers', () => {
  const roots = [join(SRC, 'engine', 'worker', 'worker-start.cts'), ...sources(SRC).filter(isMapModule)];
  for (const map of ['csv-stats-map.ts', 'import-map.ts']) assert.ok(roots.some((file) => file.endsWith(map)), map);
  const seen = new Set<string>();
  const violations: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const from = relative(SRC, file);
    for (const target of importsOf(file)) {
      if (allowedOnWorker(from, relative(SRC, target))) visit(target);
      else violations.push(`${from} -> ${relative(SRC, target)}`);
    }
    for (const [, name] of readFileSync(file, 'utf8').matchAll(PACKAGE_IMPORT)) {
      if (!name!.startsWith('node:')) violations.push(`${from} -> package ${name}`);
    }
  };
  roots.forEach(visit);
  assert.deepEqual(violations, []);
});
