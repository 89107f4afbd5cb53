// For every writer: a repeated --idempotency-key gets the last successful
// answer again, and nothing is done twice. The answer is kept in the
// program's state folder when the work succeeds (in whichever process ran
// it: the call, or a job's supervisor), keyed by command and a digest of the
// key, beside the arguments it answered and what it claims. A kept answer is
// given again only while its claim holds (the writer's `answerHolds`), and
// only until another run of the key begins: a paused run's continuation
// continues that run, never an earlier finished one.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { DRY_RUN_FLAG } from '../authoring/framework-flags.js';
import { rmSync } from 'node:fs';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import { ensurePrivateDir } from '../storage/state-dir.js';
import type { CommandResult } from '../authoring/command-spec.js';
import { streamsStdout, type Invocation } from './invocation.js';

/** The effect a replayed answer reports: nothing was done this time. */
export const NOOP_EFFECT = 'noop';

interface KeptAnswer {
  readonly argumentsDigest: string;
  readonly data: unknown;
  /** What the answer claims, for the writer's answerHolds (its output's size and inode, say). */
  readonly claim?: unknown;
  /**
   * The work ended after its caller was answered 14: the next call of the key is that run's continuation, and
   * gets the job's own answer (not a replay) from the job; only the calls after it are repeats.
   */
  readonly unseen?: boolean;
}

type Keyed = Pick<Invocation, 'command' | 'flags' | 'options' | 'stateRoot' | 'argumentsDigest'>;

/**
 * Whether the framework answers repeats of this call's key: a writer's (it has the flag), unless the command
 * answers them itself; never a stream to stdout, whose rows a kept answer could not give again, nor a
 * `--dry-run`, which previews the request rather than making it.
 */
function replays(inv: Keyed): boolean {
  const { command, options, flags } = inv;
  if (command.spec.keyedReplay === false || options.idempotencyKey === undefined) return false;
  return !streamsStdout(inv) && flags[DRY_RUN_FLAG] !== true;
}

function pathOf(inv: Keyed): string {
  const name = createHash('sha256').update(inv.options.idempotencyKey!).digest('hex');
  return join(ensurePrivateDir(inv.stateRoot, 'keyed-answers', inv.command.id), `${name}.json`);
}

/**
 * The answer a repeated key gets before anything runs: the kept one (`effect: "noop"`) while what it claims
 * still holds, or IDEMPOTENCY_KEY_REUSED when the key already answered other arguments; undefined when the
 * call goes on (a kept answer no longer true is forgotten: the call is a new run).
 * Only a key the caller gave counts: a derived one names these very arguments.
 */
export async function earlierAnswer(inv: Keyed): Promise<CommandResult | undefined> {
  if (!replays(inv) || !inv.options.idempotencyKeyGiven) return undefined;
  const kept = readJsonFile<KeptAnswer>(pathOf(inv));
  if (!kept || kept.unseen) return undefined;
  if (kept.argumentsDigest !== inv.argumentsDigest) return keyReused();
  const holds = inv.command.spec.answerHolds;
  if (holds && !(await holds({ data: kept.data, claim: kept.claim }))) {
    forgetAnswer(inv);
    return undefined;
  }
  const isRecord = typeof kept.data === 'object' && kept.data !== null && !Array.isArray(kept.data);
  const data = isRecord ? { ...kept.data, effect: NOOP_EFFECT } : kept.data;
  return { exitCode: ExitCode.SUCCESS, data, meta: { idempotency_hit: true } };
}

function keyReused(): CommandResult {
  return {
    exitCode: ExitCode.CONFLICT,
    error: {
      code: ErrorCode.IdempotencyKeyReused,
      message: 'this --idempotency-key already answered a call with other arguments; nothing was done',
      retryable: false,
      phase: Phase.Validation,
      fix_required: 'Use a new --idempotency-key for a different call',
    },
  };
}

/**
 * Forgets the answer kept under the call's key as a run of that key begins: from now on the key names this
 * run (which may pause, and whose continuation must continue it), not the one that answered before.
 */
export function forgetAnswer(inv: Keyed): void {
  if (!replays(inv)) return;
  // Unless it is still to be given: its run ended after its caller had a 14, and this call attaches to that end
  // and gives it (then it is an ordinary answer, for the key's repeats).
  if (readJsonFile<KeptAnswer>(pathOf(inv))?.unseen) return;
  rmSync(pathOf(inv), { force: true });
}

/** Keeps a successful answer under the call's key (given or derived), with its claim, for its repeats. */
export function keepAnswer(inv: Keyed, result: CommandResult): void {
  if (!replays(inv) || result.exitCode !== ExitCode.SUCCESS) return;
  const claim = result.claim === undefined ? {} : { claim: result.claim };
  const kept: KeptAnswer = { argumentsDigest: inv.argumentsDigest, data: result.data ?? null, ...claim };
  writeFileAtomic(pathOf(inv), JSON.stringify(kept));
}

/** Whether the answer kept under the call's key is still to be given, as the run's own, to its continuation. */
export function markAnswerUnseen(inv: Keyed, unseen: boolean): void {
  if (!replays(inv)) return;
  const kept = readJsonFile<KeptAnswer>(pathOf(inv));
  if (!kept) return;
  const { unseen: _was, ...rest } = kept;
  writeFileAtomic(pathOf(inv), JSON.stringify(unseen ? { ...rest, unseen } : rest));
}
