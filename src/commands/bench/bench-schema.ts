import {
  arrayOf, booleanSchema, constSchema, countSchema, memberOf, nullable, numberSchema, objectOf, stringSchema,
  type DataSchema,
} from '../../contract/data-schema.js';
import { FigureUnit } from './figure.js';

const figureSchema = objectOf({
  description: 'One measured quantity: the median of its samples',
  required: {
    id: stringSchema(), label: stringSchema(), unit: memberOf(FigureUnit), value: numberSchema(),
    spread: numberSchema('Standard deviation of the samples, in unit'), min: numberSchema(), max: numberSchema(),
    samples: countSchema(),
  },
});

const ratioSchema = objectOf({
  description: 'numerator\'s value over denominator\'s, both figures named by id',
  required: {
    id: stringSchema(), label: stringSchema(), unit: constSchema(FigureUnit.Ratio), value: numberSchema(),
    spread: numberSchema('From the two figures\' relative spreads'), numerator: stringSchema(),
    denominator: stringSchema(),
  },
});

const machineSchema = objectOf({
  description: 'The machine the figures come from',
  required: {
    cores: countSchema(), memory_bytes: countSchema(), cpu: stringSchema(), node: stringSchema(),
    platform: stringSchema(), arch: stringSchema(),
  },
});

const resumeFields = {
  command: arrayOf(stringSchema(), 'The command measured, word by word'),
  figures: arrayOf(figureSchema),
  ratios: arrayOf(ratioSchema),
  offsets: arrayOf(objectOf({
    description: 'The continuations measured near one share of the work',
    required: {
      target: numberSchema('The share aimed at'), reached: arrayOf(numberSchema(), 'The shares they started at'),
      figure: stringSchema('The figure\'s id'),
    },
  })),
  grows_with_offset: booleanSchema('A continuation takes longer the further the work got'),
};

const svg = { svg: stringSchema('The chart written (--svg), absolute') };

/** `stint bench resume`'s data. */
export const RESUME_REPORT_SCHEMA: DataSchema = objectOf({
  description: 'The resume cost of a command: a continuation\'s time to new progress against a fresh start\'s',
  required: { ...resumeFields, machine: machineSchema },
  optional: svg,
});

/** `stint bench`'s data. */
export const BENCH_REPORT_SCHEMA: DataSchema = objectOf({
  description: 'Where it ran, on what, and every figure and ratio',
  required: {
    machine: machineSchema,
    input: objectOf({
      required: {
        path: nullable(stringSchema('null for a generated file (removed at the end)')), bytes: countSchema(),
        generated: booleanSchema(),
      },
    }),
    settings: objectOf({
      required: { workers: countSchema(), samples: countSchema(), suites: arrayOf(stringSchema()) },
    }),
    figures: arrayOf(figureSchema),
    ratios: arrayOf(ratioSchema),
  },
  optional: { resume: objectOf({ required: resumeFields }), ...svg },
});
