// The generator lives with `stint bench`, which makes its input with it; tests keep importing it from here.
export * from '../../src/commands/bench/csv-generator.js';
