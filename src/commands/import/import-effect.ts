import { NOOP_EFFECT } from '../../runtime/call/keyed-replay.js';

/** Whether a call wrote rows, replayed a finished run, or (dry run) wrote nothing: `data.effect`. */
export const Effect = { Written: 'written', Noop: NOOP_EFFECT, None: 'none' } as const;
export type Effect = (typeof Effect)[keyof typeof Effect];
