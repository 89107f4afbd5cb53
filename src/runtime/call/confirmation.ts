import { buildEnvelope, type Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { askYesNo } from '../cli/confirm-prompt.js';
import { DRY_RUN_FLAG, FrameworkFlag } from '../authoring/framework-flags.js';
import { shellJoin } from '../cli/shell-quote.js';
import { callMeta } from './final-envelope.js';
import type { Invocation } from './invocation.js';

/** How a call of a command that asks first stands: may it go on, and was it confirmed (meta.confirmed)? */
export type Gate =
  | { readonly kind: 'go'; readonly inv: Invocation }
  | { readonly kind: 'refuse'; readonly envelope: Envelope };

/** The caller's words with one more flag, before any `--` (after it every word is a positional). */
function withFlag(inv: Invocation, flag: string): string {
  const argv = inv.host.argv;
  const end = argv.indexOf('--');
  const words = end < 0 ? [...argv, flag] : [...argv.slice(0, end), flag, ...argv.slice(end)];
  return shellJoin([...inv.host.programWords(), ...words]);
}

function refusal(inv: Invocation, asked: boolean): Envelope {
  const name = inv.command.path.join(' ');
  const why = asked ? 'was not confirmed at the prompt' : 'needs confirmation';
  return buildEnvelope({
    exitCode: ExitCode.ARG_ERROR,
    durationMs: inv.host.now() - inv.started,
    error: {
      code: ErrorCode.ConfirmationRequired,
      message: `${name} is ${inv.command.spec.dangerLevel} and ${why}; nothing was done. Add --${FrameworkFlag.Yes}`
        + ` to confirm, or --${DRY_RUN_FLAG} to see what it would do`,
      retryable: false,
      phase: Phase.Validation,
      fix_required: `Add --${FrameworkFlag.Yes} once the effect is intended`,
      suggestion: withFlag(inv, `--${DRY_RUN_FLAG}`),
      context: { confirm_flag: FrameworkFlag.Yes, dry_run_flag: DRY_RUN_FLAG },
    },
    meta: callMeta(inv),
  });
}

/** `demo job cancel count-1a2b3c4d is destructive: stop a job at its next safe point (...). Go ahead?` */
function question(inv: Invocation): string {
  const call = shellJoin([inv.program.identity.name, ...inv.host.argv]);
  const what = inv.command.spec.description.split(/[;.]/)[0]!;
  return `${call} is ${inv.command.spec.dangerLevel}: ${what.charAt(0).toLowerCase()}${what.slice(1)}. Go ahead?`;
}

/**
 * The framework's confirmation of a command declaring `confirm`, before any effect: `--yes` or `--dry-run`
 * goes on; a person at a terminal (stdin and stderr both TTYs, no `--non-interactive`) is asked; anyone else
 * is refused with CONFIRMATION_REQUIRED (2).
 */
export async function confirmCall(inv: Invocation): Promise<Gate> {
  const asked = inv.confirmation;
  if (!asked || inv.flags[DRY_RUN_FLAG] === true) return { kind: 'go', inv };
  if (asked.yes) return { kind: 'go', inv: { ...inv, confirmed: true } };
  const { host } = inv;
  const person = host.stdinIsTTY && host.stderrIsTTY && !asked.nonInteractive;
  if (!person) return { kind: 'refuse', envelope: refusal(inv, false) };
  const yes = await askYesNo(host, question(inv));
  return yes ? { kind: 'go', inv: { ...inv, confirmed: true } } : { kind: 'refuse', envelope: refusal(inv, true) };
}
