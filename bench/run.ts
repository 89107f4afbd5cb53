// The benchmarks' one entry point: `npm run bench [-- analyze|jobs|import]`.
// BENCH_GIB sets the big file's size (default 1). Figures are ratios against
// baselines run in the same process; see bench/README.md.
import { analyzeSuite, importSuite, jobsSuite } from './suites.js';
import { printFigures, type Figure } from './measure.js';

const which = new Set(process.argv.slice(2));
const all = which.size === 0;
const gib = Number(process.env['BENCH_GIB'] ?? 1);
const figures: Figure[] = [];
if (all || which.has('analyze')) figures.push(...(await analyzeSuite(gib)));
if (all || which.has('jobs')) figures.push(...(await jobsSuite(gib)));
if (all || which.has('import')) figures.push(...(await importSuite()));
printFigures(figures);
