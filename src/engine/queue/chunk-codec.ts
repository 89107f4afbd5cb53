import { deserialize, serialize } from 'node:v8';

/**
 * A task or a reply as BullMQ carries it: job data and return values are
 * JSON, so the structured-clone bytes a thread pool would pass (typed arrays,
 * bigints, Maps) travel as base64 of V8's own serializer, and come back with
 * the very shapes a map returns on the threads.
 */
export const encodeClone = (value: unknown): string => serialize(value).toString('base64');

export const decodeClone = <T>(text: string): T => deserialize(Buffer.from(text, 'base64')) as T;
