// The csv-parse baseline lives with `stint bench`, which runs it too; the suites import it from here.
export * from '../src/commands/bench/csv-parse-baseline.js';
