import { booleanSchema, countSchema, memberOf, objectOf, stringSchema, tupleOf } from '../../contract/data-schema.js';
import { outcomeSchema } from '../../contract/outcome-schema.js';
import { Effect } from './import-effect.js';

const rangeSchema = objectOf({
  description: 'Rows imported from one stretch of lines',
  required: { rows: countSchema() },
  optional: {
    first_id: countSchema('The first row id given (a table with no --key column numbers its rows)'),
    last_id: countSchema('The last row id given'),
  },
});

const citeSchema = objectOf({
  required: {
    path: stringSchema('The file, as given'),
    lines: tupleOf([countSchema(), countSchema()], 'First and last'),
  },
});

/** `stint import`'s data: the stretches imported, the bad rows named, and the totals. */
export const IMPORT_SCHEMA = outcomeSchema({
  description: 'Per stretch of lines, the rows imported (established); per bad row, why not (unresolved)',
  answer: rangeSchema,
  cite: citeSchema,
  extra: {
    unresolved_total: countSchema('Bad rows and stops in all; unresolved names the first of them'),
    rows_imported: countSchema('Rows in the table from this file, over every call'),
    effect: memberOf(Effect, 'written; none under --dry-run; noop when an earlier call already imported the file'),
    into: stringSchema('Where the rows went: the --into folder or database'),
  },
  optional: { dry_run: booleanSchema(), table: stringSchema('The table of a database --into') },
});
