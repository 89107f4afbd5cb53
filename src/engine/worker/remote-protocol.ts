// What a reading thread asks the fetch thread (remote-fetch-thread.ts) for.
import type { RemoteIdentity } from './remote-identity.js';

export type RemoteAsk =
  /** What the object is: its size and version (RemoteIdentity). */
  | { readonly kind: 'probe'; readonly url: string }
  /**
   * Bytes [from, to) of the version `identity` names: written into the asker's shared memory `into` at `at`
   * (the answer is their count), else answered as a buffer of their own. `reader`: the asking thread's id when
   * it will go on to read where this range ends (a chunk's reader), so the range after it is worth reading ahead.
   */
  | { readonly kind: 'range'; readonly url: string; readonly identity: RemoteIdentity; readonly from: number;
      readonly to: number; readonly reader?: number; readonly into?: SharedArrayBuffer; readonly at?: number };

/** An ask with the shared word the asking thread sleeps on until the answer is posted. */
export type RemoteRequest = RemoteAsk & { readonly signal: SharedArrayBuffer };
