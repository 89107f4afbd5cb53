import {
  arrayOf, booleanSchema, countSchema, memberOf, nullable, numberSchema, objectOf, stringSchema,
  tupleOf, type DataSchema,
} from '../../contract/data-schema.js';
import { outcomeSchema } from '../../contract/outcome-schema.js';
import { DELIMITER_NAMES } from '../csv-delimiter.js';
import { Compression } from './compression.js';
import { ColumnType } from './map/column-type.js';
import { Stat, WIDE_COLUMNS } from './stats-pick.js';

const share = (description: string): DataSchema => ({ type: 'number', minimum: 0, maximum: 1, description });

const topValue = objectOf({ required: { value: stringSchema(), count: countSchema() } });

/** Fields every column has, whatever its type. */
const everyColumn = {
  name: stringSchema('The header name'),
  type: memberOf(ColumnType),
  count: countSchema('Values that are not empty'),
  nulls: countSchema('Empty values'),
  min: { type: ['number', 'string', 'boolean', 'null'], description: 'By the column\'s type (see allOf)' },
  max: { type: ['number', 'string', 'boolean', 'null'], description: 'By the column\'s type (see allOf)' },
  null_percentage: { type: 'number', minimum: 0, maximum: 100 },
  distinct: countSchema(),
  distinct_exact: booleanSchema(),
  distinct_relative_error: share('0 when exact, else the estimate\'s relative error bound'),
  top_values: arrayOf(topValue, 'The most frequent values seen more than once, most frequent first'),
  top_values_exact: booleanSchema(),
  top_values_error: countSchema('0 when exact, else how far a count may be under the true one'),
  top_values_below_error: booleanSchema('Not exact, and no value was counted more often than the error'),
};

/** A figure that is null only when it is beyond a double's range (past ±1.8e308); sum_exact has the digits. */
const bounded = (description: string): DataSchema =>
  ({ ...nullable(numberSchema()), description: `${description}; null only beyond a double's range (±1.8e308)` });

const numericColumn = {
  sum: bounded('The nearest double; sum_exact has every digit'),
  mean: numberSchema('The exact sum over the count, rounded once'),
  min_exact: stringSchema('min\'s exact decimal digits'),
  max_exact: stringSchema('max\'s exact decimal digits'),
  sum_exact: stringSchema('sum\'s exact decimal digits'),
  stddev: bounded('Sample standard deviation, from two values on'),
  variance: bounded('Sample variance, from two values on'),
  q25: numberSchema(),
  q50: numberSchema(),
  q75: numberSchema(),
  quartile_rank_error: share('0 when the quartiles are exact, else their rank error as a share of the values'),
};

const textColumn = { min_length: countSchema('Characters'), max_length: countSchema('Characters') };

/** When `type` is one of these, min and max have this JSON type and these fields are present. */
function byType(types: readonly ColumnType[], extremes: DataSchema, present: readonly string[]): DataSchema {
  return {
    if: { properties: { type: { enum: [...types] } } },
    then: { required: [...present], properties: { min: extremes, max: extremes } },
  };
}

const { name, type, ...everyStat } = everyColumn;

/** One column: with every statistic (`full`), or with those --stats chose (each field present when chosen). */
function columnSchemaOf(full: boolean): DataSchema {
  const column = full
    ? objectOf({ required: everyColumn, optional: { ...numericColumn, ...textColumn } })
    : objectOf({ required: { name, type }, optional: { ...everyStat, ...numericColumn, ...textColumn } });
  const present = (fields: readonly string[]) => (full ? fields : []);
  return {
    ...column,
    description: full ? 'One column\'s statistics' : 'One column\'s statistics, those --stats chose',
    allOf: [
      byType([ColumnType.Integer, ColumnType.Number], nullable(numberSchema()), present(['sum', 'mean', 'sum_exact'])),
      byType([ColumnType.String, ColumnType.Date, ColumnType.Timestamp], nullable(stringSchema()), []),
      byType([ColumnType.String], stringSchema(), present(['min_length', 'max_length'])),
      byType([ColumnType.Boolean], booleanSchema(), []),
      byType([ColumnType.Empty], { type: 'null' }, []),
    ],
  };
}

const fileAnalysisSchema: DataSchema = {
  ...objectOf({
    description: 'One file\'s statistics',
    required: {
      rows: countSchema('Data rows, the header not counted'),
      delimiter: { enum: Object.values(DELIMITER_NAMES), description: 'The byte between fields' },
      columns: arrayOf(columnSchemaOf(false), 'In header order (--columns picks some)'),
    },
    optional: {
      stats: arrayOf(memberOf(Stat), `The statistics each column shows: those --stats chose, or without it the basic`
        + ` ones past ${WIDE_COLUMNS} columns; absent when every one is shown`),
    },
  }),
  // Without a list of statistics every column has every statistic of its type.
  allOf: [{ if: { not: { required: ['stats'] } }, then: { properties: { columns: { items: columnSchemaOf(true) } } } }],
};

const fileCitationSchema = objectOf({
  description: 'Which bytes of which file the statistics come from',
  required: {
    path: stringSchema(),
    size: countSchema('Bytes, of the compressed file when it is one'),
    mtime: stringSchema('When the file was last modified, ISO 8601'),
    bytes: tupleOf([countSchema(), countSchema()], 'Byte range read: [first, end)'),
    lines: tupleOf([countSchema(), countSchema()], 'First and last line read'),
  },
  optional: {
    compression: memberOf(Compression, 'How the file was compressed'),
    etag: stringSchema('An http:// or https:// input\'s ETag: the version of the object read'),
  },
});

/** `stint analyze`'s data: an outcome with one established answer per file analyzed. */
export const ANALYSIS_SCHEMA = outcomeSchema({
  description: 'Per file, its statistics (established) or why it has none (unresolved)',
  answer: fileAnalysisSchema,
  cite: fileCitationSchema,
});
