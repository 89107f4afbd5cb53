import type { FieldError } from '../../contract/envelope.js';
import { ArgProblem } from '../../contract/vocabulary/arg-problem.js';
import type { Interruption } from './command-spec.js';

/** Read under exactly this name, with no tool prefix: one variable an agent sets for every tool it calls. */
export const BUDGET_ENV = 'AGENT_CALL_BUDGET_MS';
export const DEFAULT_BUDGET_MS = 30_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
export const DEFAULT_MAX_LIFETIME_MS = 3_600_000;

export interface BudgetInputs {
  /** --budget, already parsed to ms. */
  readonly flagMs: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A person at a terminal keeps synchronous runs unless they ask for a budget. */
  readonly interactive: boolean;
}

export type BudgetResolution =
  | { readonly ok: true; readonly budgetMs: number | undefined }
  | { readonly ok: false; readonly error: FieldError };

/** --budget > AGENT_CALL_BUDGET_MS > 30000 ms; none in a terminal without --budget; 0 = none. */
export function resolveBudget(inputs: BudgetInputs): BudgetResolution {
  if (inputs.flagMs !== undefined) return { ok: true, budgetMs: inputs.flagMs };
  if (inputs.interactive) return { ok: true, budgetMs: undefined };
  const raw = inputs.env[BUDGET_ENV];
  if (raw === undefined || raw === '') return { ok: true, budgetMs: DEFAULT_BUDGET_MS };
  if (!/^\d+$/.test(raw.trim())) {
    return {
      ok: false,
      error: {
        field: BUDGET_ENV,
        reason: ArgProblem.MalformedValue,
        message: `${BUDGET_ENV}="${raw}" is not a whole number of milliseconds`,
      },
    };
  }
  return { ok: true, budgetMs: Number(raw.trim()) };
}

/** The wall clock over the whole work: --timeout, else the command's max lifetime. 0 = none. */
export function resolveTimeout(flagMs: number | undefined, interruption: Interruption): number {
  return flagMs ?? interruption.maxLifetimeMs ?? DEFAULT_MAX_LIFETIME_MS;
}
