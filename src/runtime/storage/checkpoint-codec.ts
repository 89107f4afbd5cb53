import { isDeepStrictEqual } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { pack, unpack } from 'msgpackr';

/** What the codec needs of a checkpoint record (checkpoint-store.ts): a version, and the fold state. */
interface Versioned<S> {
  readonly version: number;
  readonly state: S;
}

/**
 * A checkpoint's bytes: the record packed with msgpackr, its fold state inside as V8's structured-clone bytes.
 * msgpackr alone gives a fold state back changed (-0 as 0, a Float64Array as a Buffer of its bytes, a Map as an
 * object), and a continued run would then answer other than an uninterrupted one; V8's serializer keeps every
 * value a chunk's partial can hold when it crosses from a worker thread, exactly.
 */
export function encodeCheckpoint<R extends Versioned<unknown>>(record: R): Uint8Array {
  return pack({ ...record, state: serialize(record.state) });
}

/** The record `encodeCheckpoint` made; its state is decoded only when the record's version is `version`. */
export function decodeCheckpoint<R extends Versioned<unknown>>(bytes: Uint8Array, version: number): R {
  const record = unpack(bytes) as Versioned<Uint8Array>;
  if (record?.version !== version) return record as unknown as R;
  return { ...record, state: deserialize(record.state) } as unknown as R;
}

/**
 * Whether a checkpoint's fingerprint (as `decodeCheckpoint` gave it back) is the one `inputs` packs to. The inputs
 * make the same msgpackr round trip first, so what msgpackr changes (-0 to 0, a Map or a class instance to a plain
 * object) changes on both sides alike; key order does not matter, an `undefined` field does (msgpackr keeps it).
 */
export function sameFingerprint(stored: unknown, inputs: unknown): boolean {
  return isDeepStrictEqual(stored, unpack(pack(inputs)));
}
