import { byteScan } from './byte-scan.js';
import { csvParseStats } from './csv-parse-baseline.js';
import { engineRun, timeEngine } from './engine-repeat.js';
import { ratioOf, throughputOf } from './figure.js';
import { callsOf, timeRepeated } from './repeated.js';
import { SuiteName, type BenchSetup, type Suite } from './suite.js';

/** csv-parse is ~10x slower than the engine: fewer samples and no warm-up keep the suite short. */
const baselineRepeat = (setup: BenchSetup) => ({ samples: Math.max(2, Math.ceil(setup.samples / 2)), warmup: false });
const scanRepeat = (setup: BenchSetup) => ({ samples: setup.samples, warmup: true });

/** The engine against a single-thread csv-parse loop computing the same statistics, and against a byte scan. */
export const throughputSuite: Suite = {
  name: SuiteName.Throughput,
  steps: (setup) => callsOf(scanRepeat(setup)) + callsOf(baselineRepeat(setup)) + setup.samples + 1,
  async run(setup) {
    const { path, bytes, workers, step } = setup;
    // The engine first: an input it refuses (not CSV...) is answered with its own code before any baseline runs.
    const engine = await timeEngine(setup, 'engine', engineRun(setup));
    const scan = await timeRepeated('byte scan', { ...scanRepeat(setup), step }, () => byteScan(path));
    const parse = await timeRepeated('csv-parse', { ...baselineRepeat(setup), step }, () => csvParseStats(path));
    const figures = [
      throughputOf('throughput.engine', `stint analyze engine, ${workers} worker${workers === 1 ? '' : 's'}`, bytes,
        engine),
      throughputOf('throughput.csv_parse', 'csv-parse stream loop, same statistics, 1 thread', bytes, parse),
      throughputOf('throughput.byte_scan', 'byte scan (the floor), 1 thread', bytes, scan),
    ] as const;
    const [mine, baseline, floor] = figures;
    const ratios = [
      ratioOf('throughput.engine_vs_csv_parse', 'engine / csv-parse loop', mine, baseline),
      ratioOf('throughput.engine_vs_byte_scan', 'engine / byte scan', mine, floor),
    ];
    return { figures, ratios };
  },
};
