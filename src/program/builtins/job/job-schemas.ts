import {
  anyOf, arrayOf, booleanSchema, countSchema, describedOnly, mapOf, memberOf, nullable, numberSchema, objectOf,
  stringSchema, type DataSchema,
} from '../../../contract/data-schema.js';
import { PROGRESS_SCHEMA } from '../../../contract/progress-schema.js';
import { JobState } from '../../../contract/vocabulary/job-state.js';
import { NOOP_EFFECT } from '../../../runtime/call/keyed-replay.js';
import { CancelEffect } from './cancel-preview.js';
import { PruneEffect } from './prune-effect.js';

// The data schemas of the job commands, for the manifest (`output_schema`).

const state = memberOf(JobState);

/** A job as job-view.ts shows it. */
const jobViewSchema = objectOf({
  description: 'A job: its command, state, progress, and while it runs its rate and time left',
  required: {
    job_id: stringSchema(),
    command: stringSchema('The program and command, e.g. stint analyze'),
    argv: arrayOf(stringSchema(), 'The words after the program name'),
    state,
    progress: PROGRESS_SCHEMA,
    created_at: stringSchema('ISO 8601'),
    updated_at: stringSchema('When its status was last written, ISO 8601'),
    age_ms: countSchema(),
    updated_ms_ago: countSchema(),
  },
  optional: {
    percent: { type: 'integer', minimum: 0, maximum: 100, description: 'Whole percent, when there is a total' },
    rate: numberSchema('Units a second over its life, while it runs'),
    eta_ms: countSchema('Time left at that rate, while it runs with a total'),
  },
});

export const JOB_LIST_SCHEMA: DataSchema = arrayOf(jobViewSchema, 'Oldest first; meta.pagination tells of more');

export const JOB_PRUNE_SCHEMA: DataSchema = objectOf({
  description: 'The ended jobs removed (--dry-run: that would be)',
  required: {
    effect: memberOf({ ...PruneEffect, Noop: NOOP_EFFECT }),
    count: countSchema('Jobs in all'),
    states: mapOf(countSchema(), 'Jobs of each state'),
    jobs: arrayOf(jobViewSchema, 'The first of them, oldest first'),
    truncated: booleanSchema('More jobs than jobs lists'),
  },
});

export const JOB_LOGS_SCHEMA: DataSchema = objectOf({
  description: 'The end of a background job\'s log',
  required: {
    job_id: stringSchema(),
    path: stringSchema('The log file'),
    lines: arrayOf(stringSchema()),
    truncated: booleanSchema('The log holds more than lines'),
  },
});

const cancelAnswer = objectOf({
  description: 'The job stopped, or found ended',
  required: {
    job_id: stringSchema(), state, cancelled: booleanSchema('This call ended it'), effect: memberOf(CancelEffect),
  },
});

const cancelPreviewSchema = objectOf({
  description: 'What a cancel would do (--dry-run)',
  required: {
    job_id: stringSchema(),
    command: stringSchema('The job\'s command line'),
    state,
    progress: PROGRESS_SCHEMA,
    effect: memberOf(CancelEffect),
    would_discard: nullable(objectOf({
      required: { checkpoint: booleanSchema(), scratch_files: arrayOf(stringSchema()) },
    })),
  },
  optional: { kept: stringSchema('What a cancel leaves: a writer\'s committed rows') },
});

export const JOB_CANCEL_SCHEMA: DataSchema = anyOf([cancelAnswer, cancelPreviewSchema], 'The job\'s state after the'
  + ' cancel, or under --dry-run what a cancel would do');

/** `job status`, `job wait` and `job watch` end with the job's own answer. */
export const RELAYED_JOB_ANSWER = describedOnly('The job\'s own final answer: meta.command names the command whose'
  + ' output_schema it follows');
