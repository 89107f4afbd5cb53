import {
  arrayOf, constSchema, countSchema, memberOf, objectOf, stringSchema, type DataSchema,
} from '../../contract/data-schema.js';
import { NOOP_EFFECT } from '../../runtime/call/keyed-replay.js';
import { ExportFormat } from './export-format.js';

/** `stint export`'s data: what was written where. To stdout (`--output -`) it names no file and no size. */
export const EXPORT_SCHEMA: DataSchema = objectOf({
  description: 'The rows written, in id order, and where they went',
  required: {
    rows: countSchema('Rows written'),
    columns: arrayOf(stringSchema(), 'The table\'s columns, in order'),
    output: stringSchema('--output as given (- for stdout)'),
    format: memberOf(ExportFormat),
  },
  optional: {
    file: stringSchema('The absolute path of the file written'),
    bytes: countSchema('Bytes in that file'),
    effect: constSchema(NOOP_EFFECT, 'The answer of an earlier call with this --idempotency-key; nothing was done'),
  },
});
