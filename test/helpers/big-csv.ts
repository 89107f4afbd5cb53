// The big-file writer lives with `stint bench`, which makes its input with it; the suites import it from here.
export * from '../../src/commands/bench/big-csv.js';
