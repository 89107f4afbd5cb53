import type { Envelope } from '../contract/envelope.js';
import type { Invocation } from '../runtime/call/invocation.js';

/** Either a response to give at once (help, version, argument errors) or a validated invocation to run. */
export type Resolution =
  | { readonly kind: 'answer'; readonly envelope: Envelope; readonly text?: string }
  | { readonly kind: 'run'; readonly inv: Invocation };
