// The benchmarks' one entry point:
// `npm run bench [-- analyze|wide|jobs|import|databases|remote|budget|scale] [--json] [--no-readme]`.
// BENCH_GIB sets the big file's size (default 1). Figures are ratios against
// baselines run in the same process; see bench/README.md. The run writes its
// figures into bench/README.md's marked region unless --no-readme.
import { join } from 'node:path';
import { analyzeSuite, importSuite, jobsSuite, scaleSuite } from './suites.js';
import { budgetSuite } from './budget-keeping.js';
import { wideSuite } from './wide-suite.js';
import { loaderFigures } from './peer-loaders.js';
import { databaseFigures } from './database-loaders.js';
import { remoteFigures } from './remote-inputs.js';
import { printFigures, type Figure } from './measure.js';
import { figuresTable, writeReadmeFigures } from './readme-figures.js';
import { thisMachine } from '../src/commands/bench/machine.js';
import { REPO_ROOT } from '../test/helpers/paths.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const readme = !args.includes('--no-readme');
const which = new Set(args.filter((arg) => !arg.startsWith('--')));
const all = which.size === 0;
const gib = Number(process.env['BENCH_GIB'] ?? 1);
const suites = ['analyze', 'wide', 'jobs', 'import', 'databases', 'remote', 'budget', 'scale']
  .filter((suite) => all || which.has(suite));
const figures: Figure[] = [];
if (suites.includes('analyze')) figures.push(...(await analyzeSuite(gib)));
if (suites.includes('wide')) figures.push(...(await wideSuite(gib)));
if (suites.includes('jobs')) figures.push(...(await jobsSuite(gib)));
if (suites.includes('import')) figures.push(...(await importSuite()), ...(await loaderFigures(gib)));
if (suites.includes('databases')) figures.push(...(await databaseFigures(gib)));
if (suites.includes('remote')) figures.push(...(await remoteFigures(gib)));
if (suites.includes('budget')) figures.push(...(await budgetSuite(gib)));
if (suites.includes('scale')) figures.push(...(await scaleSuite()));
const machine = thisMachine();
if (json) console.log(JSON.stringify({ machine, suites, gib, figures }));
else printFigures(figures);
if (readme) writeReadmeFigures(join(REPO_ROOT, 'bench', 'README.md'), figuresTable(figures, machine, suites));
