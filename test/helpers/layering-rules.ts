import ts from 'typescript';
import { ReferenceKind, referencesOf, type Reference, type SourceFiles } from './source-references.js';

/**
 * What each top-level folder of src/ may import. `program` (the framework's assembly and built-in commands)
 * and `commands` (stint's own) are siblings that never import each other; `client` sees the contract alone.
 */
export const LAYER_SEES: Readonly<Record<string, readonly string[]>> = {
  contract: [],
  types: [],
  runtime: ['contract'],
  engine: ['contract', 'runtime'],
  program: ['contract', 'runtime', 'engine'],
  commands: ['contract', 'runtime', 'engine', 'client'],
  client: ['contract'],
  testing: ['contract', 'runtime', 'engine'],
  bin: ['contract', 'runtime', 'engine', 'program', 'commands', 'client'],
};

/** The entry points at src/'s top re-export layers; `worker.ts` is also held to the worker side's rule. */
export const ENTRY_FILES: readonly string[] = ['index.ts', 'worker.ts'];

/** runtime/'s sub-folders, bottom first: each imports only those before it (and itself). */
export const RUNTIME_RANKS: readonly string[] = ['authoring', 'storage', 'cli', 'call', 'jobs'];

/** stint's declared codes (contract only): the commands' maps raise them, so the worker side may import them. */
export const SHARED_WITH_WORKERS: readonly string[] = ['commands/stint-codes.ts'];

/** A command's worker side: `commands/<command>/map/` (and its sub-folders). */
const MAP_FOLDER = /^commands\/[^/]+\/map\//;
const ENGINE_WORKER = 'engine/worker/';

const ownMapFolder = (file: string): string | undefined => MAP_FOLDER.exec(file)?.[0];

/** A file that runs on the pool's threads, or that such a file may import (so it is held to the same rule). */
export function isWorkerSide(file: string): boolean {
  return file.startsWith(ENGINE_WORKER) || ownMapFolder(file) !== undefined || file === 'worker.ts'
    || SHARED_WITH_WORKERS.includes(file);
}

const layerOf = (file: string): string => (file.includes('/') ? file.split('/')[0]! : file);
const show = (file: string, ref: Reference): string => `${file} -> ${ref.target} (${ref.kind})`;

/** The top-level rule. A `new URL` naming the executable in bin/ is a program to spawn, not code loaded. */
function layerViolations(file: string, refs: readonly Reference[]): string[] {
  const from = layerOf(file);
  if (ENTRY_FILES.includes(file)) return [];
  const sees = LAYER_SEES[from];
  if (sees === undefined) return [`${file}: src/${from}/ is not a ranked layer`];
  return refs.filter((ref) => ref.relative).flatMap((ref) => {
    const to = layerOf(ref.target);
    const spawned = ref.kind === ReferenceKind.Url && to === 'bin';
    return to === from || sees.includes(to) || spawned ? [] : [show(file, ref)];
  });
}

const runtimeFolderOf = (file: string): string | undefined =>
  file.startsWith('runtime/') ? file.split('/').slice(1, -1)[0] ?? '' : undefined;

/** Within runtime/: every file sits in a ranked sub-folder and imports none above its own. */
function runtimeViolations(file: string, refs: readonly Reference[]): string[] {
  const from = runtimeFolderOf(file);
  if (from === undefined) return [];
  const rank = RUNTIME_RANKS.indexOf(from);
  if (rank < 0) return [`${file}: runtime/${from} is not a ranked sub-folder`];
  return refs.filter((ref) => ref.relative).flatMap((ref) => {
    const to = runtimeFolderOf(ref.target);
    return to === undefined || RUNTIME_RANKS.indexOf(to) <= rank ? [] : [show(file, ref)];
  });
}

/** The worker side imports the contract, engine/worker/, its own map folder and the shared codes; no package. */
function workerViolations(file: string, refs: readonly Reference[]): string[] {
  if (!isWorkerSide(file)) return [];
  const ownMap = ownMapFolder(file);
  return refs.flatMap((ref) => {
    if (!ref.relative) return ref.target.startsWith('node:') ? [] : [`${file} -> package ${ref.target} (${ref.kind})`];
    const allowed = ref.target.startsWith('contract/') || ref.target.startsWith(ENGINE_WORKER)
      || (ownMap !== undefined && ref.target.startsWith(ownMap)) || SHARED_WITH_WORKERS.includes(ref.target);
    return allowed ? [] : [show(file, ref)];
  });
}

const MAP_EXPORTS: ReadonlySet<string> = new Set(['map', 'mapWindow']);

/** Whether a file exports a map (`map` or `mapWindow`): the module a pool thread loads, so worker-side. */
function exportsMap(file: string, files: SourceFiles): boolean {
  const source = ts.createSourceFile(file, files.get(file) ?? '', ts.ScriptTarget.Latest, true);
  return source.statements.some((statement) => ts.isFunctionDeclaration(statement)
    && statement.name !== undefined && MAP_EXPORTS.has(statement.name.text)
    && (ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Export) !== 0);
}

/** Every rule over every file: one line per violation (empty when the sources keep the layout). */
export function layeringViolations(files: SourceFiles): string[] {
  return [...files.keys()].sort().flatMap((file) => {
    const refs = referencesOf(file, files);
    const misplacedMap = exportsMap(file, files) && !isWorkerSide(file)
      ? [`${file}: a map module lives in a commands/<command>/map/ folder`] : [];
    return [
      ...layerViolations(file, refs), ...runtimeViolations(file, refs), ...workerViolations(file, refs),
      ...misplacedMap,
    ];
  });
}

/** Import cycles (a `new URL` is not loaded with its referrer, so it closes none). */
export function importCycles(files: SourceFiles): string[] {
  const graph = new Map([...files.keys()].map((file) => [file, referencesOf(file, files)
    .filter((ref) => ref.relative && ref.kind !== ReferenceKind.Url).map((ref) => ref.target)]));
  const visiting = new Set<string>();
  const done = new Set<string>();
  const cycles: string[] = [];
  const visit = (file: string, trail: readonly string[]): void => {
    if (done.has(file)) return;
    if (visiting.has(file)) {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    visiting.add(file);
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    visiting.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}
