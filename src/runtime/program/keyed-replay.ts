// REQ-C-007 for every writer: a repeated --idempotency-key gets the first
// successful answer again, and nothing is done twice. The answer is kept in
// the program's state folder when the work succeeds (in whichever process
// ran it: the call, or a job's supervisor), keyed by command and a digest of
// the key, beside the arguments it answered.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { DRY_RUN_FLAG } from '../cli/framework-flags.js';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import { ensurePrivateDir } from '../storage/state-dir.js';
import type { CommandResult } from './command-spec.js';
import { streamsStdout, type Invocation } from './invocation.js';

/** The effect a replayed answer reports: nothing was done this time. */
export const NOOP_EFFECT = 'noop';

interface KeptAnswer {
  readonly argumentsDigest: string;
  readonly data: unknown;
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
 * The answer a repeated key gets before anything runs: the kept one (`effect: "noop"`), or
 * IDEMPOTENCY_KEY_REUSED when the key already answered other arguments; undefined when the call goes on.
 * Only a key the caller gave counts: a derived one names these very arguments.
 */
export function earlierAnswer(inv: Keyed): CommandResult | undefined {
  if (!replays(inv) || !inv.options.idempotencyKeyGiven) return undefined;
  const kept = readJsonFile<KeptAnswer>(pathOf(inv));
  if (!kept) return undefined;
  if (kept.argumentsDigest !== inv.argumentsDigest) {
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
  const isRecord = typeof kept.data === 'object' && kept.data !== null && !Array.isArray(kept.data);
  const data = isRecord ? { ...kept.data, effect: NOOP_EFFECT } : kept.data;
  return { exitCode: ExitCode.SUCCESS, data, meta: { idempotency_hit: true } };
}

/** Keeps a successful answer under the call's key (given or derived), for its repeats. */
export function keepAnswer(inv: Keyed, result: CommandResult): void {
  if (!replays(inv) || result.exitCode !== ExitCode.SUCCESS) return;
  const kept: KeptAnswer = { argumentsDigest: inv.argumentsDigest, data: result.data ?? null };
  writeFileAtomic(pathOf(inv), JSON.stringify(kept));
}
