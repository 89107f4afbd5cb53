import type { CommandContext } from '../runtime/authoring/command-spec.js';
import type { QueueTarget } from './pool-choice.js';

/** What a fold's safe points use of a handler's context: progress, the stop, the budget's pace and the clock. */
export type SafePointContext = Pick<CommandContext, 'progress' | 'stopRequested' | 'stopUrgent' | 'pace' | 'now'>;

/**
 * What the engine uses of a handler's context: a handler passes its own `ctx` (a CommandContext is one), and a
 * test gives just these members.
 */
export interface EngineContext
  extends SafePointContext, QueueTarget, Pick<CommandContext, 'cwd' | 'stdinPath' | 'restore' | 'checkpoint'> {}
