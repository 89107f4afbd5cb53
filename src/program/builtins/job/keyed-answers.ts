import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ErrorCode } from '../../../contract/error-code.js';
import { ExitCode } from '../../../contract/exit-code.js';
import type { CommandResult, FrameworkOptions } from '../../../runtime/authoring/command-spec.js';
import { NOOP_EFFECT } from '../../../runtime/call/keyed-replay.js';
import { readJsonFile, writeFileAtomic } from '../../../runtime/storage/atomic-file.js';
import { ensurePrivateDir } from '../../../runtime/storage/state-dir.js';
import type { JobStore } from '../../../runtime/jobs/job-store.js';

/** What a job command given `--idempotency-key` answered, kept so that the same key answers a retry the same. */
interface KeyedAnswer {
  /** What the call acted on (a job id; a prune's filter): the same key for something else is a conflict. */
  readonly subject: string;
  readonly data: Record<string, unknown>;
}


/** The answers of one command (`cancel`, `prune`), by a digest of the caller's key. */
export class KeyedAnswers {
  constructor(private readonly store: JobStore, private readonly command: string) {}

  private pathOf(key: string): string {
    const name = createHash('sha256').update(key).digest('hex');
    return join(ensurePrivateDir(this.store.root, 'answer-keys', this.command), name);
  }

  /** The answer the caller's key already got ('go' when none: the call acts). */
  earlier(options: FrameworkOptions, subject: string): CommandResult | 'go' {
    const key = options.idempotencyKeyGiven ? options.idempotencyKey : undefined;
    const record = key === undefined ? undefined : readJsonFile<KeyedAnswer>(this.pathOf(key));
    if (!record) return 'go';
    if (record.subject === subject) {
      const data = { ...record.data, effect: NOOP_EFFECT };
      return { exitCode: ExitCode.SUCCESS, data, meta: { idempotency_hit: true } };
    }
    return {
      exitCode: ExitCode.CONFLICT,
      error: {
        code: ErrorCode.IdempotencyKeyReused,
        message: `this --idempotency-key already named another job ${this.command} (${record.subject})`,
        retryable: false,
        fix_required: 'Use a new key for another call',
      },
    };
  }

  /** Keeps a successful answer under the caller's key, if one was given. */
  keep(options: FrameworkOptions, subject: string, result: CommandResult): void {
    const key = options.idempotencyKeyGiven ? options.idempotencyKey : undefined;
    if (key === undefined || result.exitCode !== ExitCode.SUCCESS) return;
    const record: KeyedAnswer = { subject, data: result.data as Record<string, unknown> };
    writeFileAtomic(this.pathOf(key), JSON.stringify(record));
  }
}
