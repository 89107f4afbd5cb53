import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { REPO_ROOT } from '../helpers/paths.js';
import {
  LAYER_SEES, RUNTIME_RANKS, importCycles, layeringViolations,
} from '../helpers/layering-rules.js';
import type { SourceFiles } from '../helpers/source-references.js';

// The rules (test/helpers/layering-rules.ts) are a function over source files: the real src/ is one input,
// and the small sources below prove that each kind of crossing is reported.
const SRC = join(REPO_ROOT, 'src');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourcesUnder(path) : /\.c?ts$/.test(entry.name) ? [path] : [];
  });
}

const realSources = (): SourceFiles => new Map(sourcesUnder(SRC)
  .map((file) => [relative(SRC, file).split(sep).join('/'), readFileSync(file, 'utf8')] as const));

const files = (entries: Record<string, string>): SourceFiles => new Map(Object.entries(entries));

/** Files a small source tree's references land on, so that they resolve as real sources do. */
const TARGETS = {
  'contract/error-code.ts': 'export const ErrorCode = {} as const;\n',
  'runtime/storage/atomic-file.ts': 'export const writeAtomic = 1;\n',
  'runtime/jobs/job-store.ts': 'export const store = 1;\n',
  'engine/queue/queue-pool.ts': 'export const pool = 1;\n',
  'engine/worker/framing.ts':
    "import { ErrorCode } from '../../contract/error-code.js';\nexport const f = ErrorCode;\n",
};

test('src/ keeps the layout: layers, runtime ranks and the worker side', () => {
  const sources = realSources();
  assert.ok(sources.has('engine/worker/worker-start.cts') && sources.has('commands/analyze/map/csv-stats-map.ts'));
  assert.deepEqual(layeringViolations(sources), []);
});

test('no import cycles', () => {
  assert.deepEqual(importCycles(realSources()), []);
});

test('sources that keep the rules are not reported', () => {
  const clean = files({
    ...TARGETS,
    'commands/analyze/map/stats-map.ts': "import { f } from '../../../engine/worker/framing.js';\n"
      + "import './helper.js';\nconst wasm = new URL('./wasm/scan.wasm', import.meta.url);\n"
      + 'export function map(): unknown { return [f, wasm]; }\n',
    'commands/analyze/map/helper.ts': "import 'node:fs';\n",
    'commands/analyze/analyze-run.ts': "import { store } from '../../runtime/jobs/job-store.js';\n"
      + "export const MAP = new URL('./map/stats-map.js', import.meta.url).href + store;\n",
    'runtime/jobs/job-end.ts':
      "import { writeAtomic } from '../storage/atomic-file.js';\nexport const e = writeAtomic;\n",
  });
  assert.deepEqual(layeringViolations(clean), []);
});

test('a side-effect import across the worker boundary is reported', () => {
  const sources = files({ ...TARGETS, 'engine/worker/chunk.ts': "import '../../runtime/storage/atomic-file.js';\n" });
  assert.deepEqual(layeringViolations(sources),
    ['engine/worker/chunk.ts -> runtime/storage/atomic-file.ts (side-effect)']);
});

test('a new URL reference across the worker boundary is reported', () => {
  const sources = files({
    ...TARGETS,
    'engine/worker/entry.ts': "export const helper = new URL('../../runtime/x.js', import.meta.url).href;\n",
  });
  assert.deepEqual(layeringViolations(sources), ['engine/worker/entry.ts -> runtime/x.js (new URL)']);
});

test('a dynamic import across the worker boundary, and a package on the worker side, are reported', () => {
  const sources = files({
    ...TARGETS,
    'commands/import/map/import-map.ts': "export async function map(): Promise<unknown> {\n"
      + "  return [await import('../../../engine/queue/queue-pool.js'), await import('msgpackr')];\n}\n",
  });
  assert.deepEqual(layeringViolations(sources), [
    'commands/import/map/import-map.ts -> engine/queue/queue-pool.ts (dynamic import)',
    'commands/import/map/import-map.ts -> package msgpackr (dynamic import)',
  ]);
});

test("a map module outside a map/ folder, and a map reaching another command's map, are reported", () => {
  const sources = files({
    ...TARGETS,
    'commands/export/export-map.ts': 'export function map(): number { return 1; }\n',
    'commands/import/map/rows.ts': "import { map } from '../../analyze/map/stats.js';\nexport const m = map;\n",
    'commands/analyze/map/stats.ts': 'export function map(): number { return 1; }\n',
  });
  assert.deepEqual(layeringViolations(sources), [
    'commands/export/export-map.ts: a map module lives in a commands/<command>/map/ folder',
    'commands/import/map/rows.ts -> commands/analyze/map/stats.ts (import)',
  ]);
});

test('an upward import between runtime sub-folders is reported, and so is an unranked one', () => {
  const sources = files({
    ...TARGETS,
    'runtime/storage/checkpoint.ts':
      "import type { store } from '../jobs/job-store.js';\nexport type S = typeof store;\n",
    'runtime/program.ts': "export * from './storage/atomic-file.js';\n",
    'runtime/misc/thing.ts': 'export const thing = 1;\n',
  });
  assert.deepEqual(layeringViolations(sources), [
    'runtime/misc/thing.ts: runtime/misc is not a ranked sub-folder',
    'runtime/program.ts: runtime/ is not a ranked sub-folder',
    'runtime/storage/checkpoint.ts -> runtime/jobs/job-store.ts (import)',
  ]);
});

test('program and commands never import each other; client sees the contract alone; layers go down', () => {
  const sources = files({
    ...TARGETS,
    'program/program.ts': "export { run } from '../commands/analyze/analyze-run.js';\n",
    'commands/analyze/analyze-run.ts':
      "import { p } from '../../program/builtins/manifest-command.js';\nexport const run = p;\n",
    'program/builtins/manifest-command.ts': 'export const p = 1;\n',
    'client/loop.ts': "import { store } from '../runtime/jobs/job-store.js';\nexport const l = store;\n",
    'engine/process-file.ts': "import { p } from '../program/builtins/manifest-command.js';\nexport const e = p;\n",
    'tools/extra.ts': 'export const x = 1;\n',
  });
  assert.deepEqual(layeringViolations(sources), [
    'client/loop.ts -> runtime/jobs/job-store.ts (import)',
    'commands/analyze/analyze-run.ts -> program/builtins/manifest-command.ts (import)',
    'engine/process-file.ts -> program/builtins/manifest-command.ts (import)',
    'program/program.ts -> commands/analyze/analyze-run.ts (export)',
    'tools/extra.ts: src/tools/ is not a ranked layer',
  ]);
});

test('a cycle is reported', () => {
  const sources = files({ 'engine/a.ts': "import './b.js';\n", 'engine/b.ts': "export * from './a.js';\n" });
  assert.deepEqual(importCycles(sources), ['engine/a.ts -> engine/b.ts -> engine/a.ts']);
});

test("the README's Layout lists every layer below those it sees, and runtime's sub-folders in their ranks", () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Layout\n'));
  const block = section.slice(section.indexOf('```'), section.indexOf('```', section.indexOf('```') + 3));
  const missing = Object.keys(LAYER_SEES).filter((layer) => !block.includes(`src/${layer}/`));
  assert.deepEqual(missing, []);
  const line = (layer: string): number => block.indexOf(`\nsrc/${layer}/`);
  const below = Object.entries(LAYER_SEES).flatMap(([layer, sees]) =>
    sees.filter((seen) => line(seen) > line(layer)).map((seen) => `${layer} sees ${seen}, listed below it`));
  assert.deepEqual(below, []);
  const runtime = block.slice(block.indexOf('src/runtime/'), block.indexOf('src/engine/'));
  const positions = RUNTIME_RANKS.map((folder) => runtime.indexOf(`${folder}/ (`));
  assert.ok(positions.every((at) => at >= 0), `each of ${RUNTIME_RANKS.join(', ')} is described`);
  assert.deepEqual([...positions].sort((a, b) => a - b), positions, 'bottom first, as they are ranked');
});
