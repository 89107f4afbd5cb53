import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { REPO_ROOT } from '../helpers/paths.js';

// Imports flow one way: contract <- runtime <- engine <- commands; client
// sees the contract only; bin sits on top. Worker-side files import only the
// contract and engine worker helpers. This test reads src/ and keeps it so.
const RANK: Record<string, number> = { contract: 0, runtime: 1, engine: 2, commands: 3, client: 3, bin: 4 };
const SRC = join(REPO_ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
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
    if (!(from in RANK)) continue; // index.ts: the public surface may re-export any layer
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      const allowed = from === 'client' ? to === 'contract' || to === 'client' : RANK[to]! <= RANK[from]! && !(from === 'commands' && to === 'client');
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
