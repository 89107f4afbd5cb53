import { engineRun, timeEngine } from './engine-repeat.js';
import { ratioOf, throughputOf, type Figure, type Ratio } from './figure.js';
import { SuiteName, type BenchSetup, type Suite } from './suite.js';
import { DEFAULT_CHUNK_SIZE } from '../engine-flags.js';

/** Chunk sizes tried at the top worker count: a quarter of the default, the default, four times it. */
export const CHUNK_SIZES = [DEFAULT_CHUNK_SIZE / 4, DEFAULT_CHUNK_SIZE, DEFAULT_CHUNK_SIZE * 4] as const;

const workerCounts = (setup: BenchSetup) => Array.from({ length: setup.workers }, (_, k) => k + 1);
const kib = (bytes: number) => `${bytes / 1024} KiB`;

async function byWorkers(setup: BenchSetup): Promise<{ figures: Figure[]; ratios: Ratio[] }> {
  const figures: Figure[] = [];
  for (const workers of workerCounts(setup)) {
    const ms = await timeEngine(setup, `workers ${workers}`, engineRun(setup, { workers }));
    const label = `engine, ${workers} worker${workers === 1 ? '' : 's'}`;
    figures.push(throughputOf(`scaling.workers_${workers}`, label, setup.bytes, ms));
  }
  const one = figures[0]!;
  const ratios = figures.slice(1).map((figure, k) =>
    ratioOf(`scaling.workers_${k + 2}_vs_1`, `${k + 2} workers / 1 worker`, figure, one));
  return { figures, ratios };
}

async function byChunkSize(setup: BenchSetup): Promise<{ figures: Figure[]; ratios: Ratio[] }> {
  const figures: Figure[] = [];
  for (const chunkSize of CHUNK_SIZES) {
    const ms = await timeEngine(setup, `chunk ${chunkSize}`, engineRun(setup, { chunkSize }));
    const label = `engine, ${setup.workers} workers, ${kib(chunkSize)} chunks`;
    figures.push(throughputOf(`scaling.chunk_${chunkSize}`, label, setup.bytes, ms));
  }
  const base = figures[CHUNK_SIZES.indexOf(DEFAULT_CHUNK_SIZE)]!;
  const ratios = CHUNK_SIZES.flatMap((size, k) => size === DEFAULT_CHUNK_SIZE ? [] : [
    ratioOf(`scaling.chunk_${size}_vs_${DEFAULT_CHUNK_SIZE}`, `${kib(size)} / ${kib(DEFAULT_CHUNK_SIZE)} chunks`,
      figures[k]!, base),
  ]);
  return { figures, ratios };
}

/** Throughput by worker count (1 to the top) and by chunk size (at the top worker count). */
export const scalingSuite: Suite = {
  name: SuiteName.Scaling,
  steps: (setup) => (workerCounts(setup).length + CHUNK_SIZES.length) * (setup.samples + 1),
  async run(setup) {
    const workers = await byWorkers(setup);
    const chunks = await byChunkSize(setup);
    return { figures: [...workers.figures, ...chunks.figures], ratios: [...workers.ratios, ...chunks.ratios] };
  },
};
