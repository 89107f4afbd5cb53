import {
  arrayOf, booleanSchema, countSchema, objectOf, stringSchema, type DataSchema,
} from '../../../contract/data-schema.js';

/** `worker`'s data once it drained after a signal. */
export const WORKER_SCHEMA: DataSchema = objectOf({
  description: 'The queue it served and the chunks it ran',
  required: {
    queue: stringSchema('The Redis URL'),
    concurrency: countSchema(),
    chunks: countSchema('Chunks it ran'),
    drained: booleanSchema('It finished the chunks in hand'),
  },
});

const workerEntry = objectOf({
  description: 'One live worker process',
  required: {
    id: stringSchema('Unique per process'), build: stringSchema(), version: stringSchema(), host: stringSchema(),
    pid: countSchema(), concurrency: countSchema(), chunks: countSchema('Chunks done'),
    startedAt: stringSchema('ISO 8601'), lastSeen: stringSchema('ISO 8601'),
  },
});

/** `worker list`'s data. */
export const WORKER_LIST_SCHEMA: DataSchema = objectOf({
  description: 'The live workers of this program\'s queue',
  required: {
    build: stringSchema('This program\'s build: a worker of another build takes none of its chunks'),
    namespace: stringSchema('The queue\'s key prefix'),
    workers: arrayOf(workerEntry),
  },
});
