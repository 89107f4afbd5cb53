import { testModeOn } from '../authoring/test-mode.js';

/**
 * Tests only, and only in test mode: `STINT_TEST_SLOW_SAVE=<every>:<ms>` makes every <every>th checkpoint save of
 * a call take <ms> longer, so that a budget can end while a save is in flight and its stop is forced (answered from
 * the last checkpoint) rather than reached at a safe point. The fault-injection suite uses it.
 */
export const SLOW_SAVE_ENV = 'STINT_TEST_SLOW_SAVE';

export interface SlowSave {
  readonly every: number;
  readonly ms: number;
}

export function slowSaveOf(env: Readonly<Record<string, string | undefined>>): SlowSave | undefined {
  const words = env[SLOW_SAVE_ENV]?.split(':').map(Number);
  if (!testModeOn(env) || words?.length !== 2 || !words.every((n) => Number.isInteger(n) && n > 0)) return undefined;
  return { every: words[0]!, ms: words[1]! };
}
