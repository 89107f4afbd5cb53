import type { FlagSpec } from './command-spec.js';

/** The flag the framework gives every streaming command: the one envelope instead of the stream. */
export const NO_STREAM_FLAG = 'no-stream';

export const STREAM_FLAGS: Readonly<Record<string, FlagSpec>> = Object.freeze({
  [NO_STREAM_FLAG]: {
    type: 'boolean',
    description: 'Answer with one JSON envelope when the work ends instead of a stream of JSON lines',
  },
});
