import { countSchema, objectOf, stringSchema, type DataSchema } from './data-schema.js';

/** The schema of a Progress (incomplete.ts): how far a job got, in its unit. */
export const PROGRESS_SCHEMA: DataSchema = objectOf({
  description: 'How far the work got; done never decreases',
  required: { done: countSchema('Units done') },
  optional: {
    total: countSchema('Units in all, when known'),
    unit: stringSchema('bytes, rows, items or steps, or the author\'s own unit'),
    rows: countSchema('Rows done, when the unit is another'),
    workers: countSchema('Queue workers that completed chunks of this call'),
  },
});
