import type { Envelope, ErrorDetail, WarningDetail } from '../../contract/envelope.js';
import type { ExitCode, ExitCodeEntry } from '../../contract/exit-code.js';
import type { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import type { MonotonicReading } from './monotonic-clock.js';
import type { Pace } from './pace.js';
import type { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import type { Progress } from '../../contract/incomplete.js';
import type { Cause } from '../../contract/vocabulary/cause.js';
import type { OutputFormat } from '../../contract/vocabulary/output-format.js';
import type { DataSchema } from '../../contract/data-schema.js';

/**
 * Flag types an author may declare. `duration` takes `250`, `250ms`, `5s`,
 * `2m`, `1h` (milliseconds); `bytes` takes `65536`, `64KiB`, `64MB`, `1.5GiB` (SI and binary units,
 * byte-size.ts).
 */
export type FlagType = 'string' | 'integer' | 'number' | 'boolean' | 'duration' | 'bytes' | 'enum';

/** One flag a command declares, by name in `CommandSpec.flags` (`--name`). */
export interface FlagSpec {
  readonly type: FlagType;
  readonly description: string;
  readonly required?: boolean;
  readonly default?: string | number | boolean;
  readonly enumValues?: readonly string[];
  /** One letter, used as `-x`. */
  readonly short?: string;
  /** Lower bound for integer, number, duration and bytes flags. */
  readonly min?: number;
  /** Upper bound for integer, number, duration and bytes flags. */
  readonly max?: number;
  /**
   * False for flags that cannot change the result (worker count, chunk size):
   * they are left out of the invocation's identity, so changing them still
   * attaches to the same job and resumes the same checkpoint.
   */
  readonly identity?: boolean;
}

/** Positional types an author may declare. */
export type PositionalType = 'string' | 'integer' | 'number' | 'enum';

/** One positional argument a command declares, in order. */
export interface PositionalSpec {
  readonly name: string;
  readonly type: PositionalType;
  readonly description: string;
  /** Default true. */
  readonly required?: boolean;
  /** Only the last positional may be variadic: it takes every remaining word. */
  readonly variadic?: boolean;
  /**
   * A command line of its own (with `variadic`), given after `--` so that its flags stay its own: help shows it
   * so, and a flag the command does not know, met after the first word, says to put the words after `--`.
   */
  readonly afterTerminator?: boolean;
  readonly enumValues?: readonly string[];
}

/** How a command survives the end of its caller's budget: a background job, a checkpoint, or both. */
export interface Interruption {
  /** The work may go on in a detached background job after the call returns. */
  readonly detach: boolean;
  /** The command checkpoints, so the identical invocation continues it. */
  readonly resume: boolean;
  /** A job whose progress.done does not grow for this long ends STALLED. Default 300000. */
  readonly idleTimeoutMs?: number;
  /** Bound on the whole work when the caller gives no --timeout. Default 3600000. */
  readonly maxLifetimeMs?: number;
  /**
   * The work runs its chunks through the pool (processFile, processFiles), so the command takes `--queue`.
   * Default true; false for work that never uses the pool (an export): then `--queue` is an unknown flag.
   */
  readonly chunks?: boolean;
}

/** How a command reads stdin: `buffered` whole (up to `maxBytes`), `lines` or `records`. */
export interface StdinSpec {
  readonly mode: 'buffered' | 'lines' | 'records';
  readonly maxBytes?: number;
  /** Whether this call reads stdin, from its positionals (`-` among the files, say); default: every call. */
  readonly when?: (positionals: Readonly<Record<string, unknown>>) => boolean;
}

type FlagValue<S extends FlagSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['type'] extends 'integer' | 'number' | 'duration' | 'bytes'
    ? number
    : S['enumValues'] extends readonly (infer E)[]
      ? E
      : string;

/** What the handler receives for its declared flags. */
export type FlagValues<F extends Readonly<Record<string, FlagSpec>>> = {
  readonly [K in keyof F]: F[K] extends { required: true } | { default: unknown } | { type: 'boolean' }
    ? FlagValue<F[K]>
    : FlagValue<F[K]> | undefined;
};

type PositionalValue<S extends PositionalSpec> = S['variadic'] extends true
  ? readonly string[]
  : S['type'] extends 'integer' | 'number'
    ? number
    : string;

/** What the handler receives for its declared positionals, by name. */
export type PositionalValues<P extends readonly PositionalSpec[]> = {
  readonly [S in P[number] as S['name']]: S['required'] extends false
    ? PositionalValue<S> | undefined
    : PositionalValue<S>;
};

/** Options the framework adds and resolves itself (they are not in the handler's flags). */
export interface FrameworkOptions {
  /** Sync call budget in force; undefined when none applies (a terminal without --budget). 0 = no budget. */
  readonly budgetMs: number | undefined;
  /** Wall-clock bound on the whole work, when one applies. */
  readonly timeoutMs: number | undefined;
  /**
   * The effective idempotency key of a writer: the caller's --idempotency-key, else one derived from the
   * invocation.
   */
  readonly idempotencyKey: string | undefined;
  /** Whether the caller gave the key (a continuation then does not add it again). */
  readonly idempotencyKeyGiven?: boolean;
  /** The Redis URL whose queue runs the chunks (--queue, else STINT_QUEUE); undefined: the threads here. */
  readonly queue?: string;
  /** The call's answer format (--format, else json unless stdout is a terminal): for what a handler logs. */
  readonly format?: OutputFormat;
}

/** What a handler is called with: its flags and positionals, typed by the declaration, and the framework's options. */
export interface CommandInput<F extends Readonly<Record<string, FlagSpec>>, P extends readonly PositionalSpec[]> {
  readonly flags: FlagValues<F>;
  readonly positionals: PositionalValues<P>;
  readonly options: FrameworkOptions;
}

/**
 * The stdout of a streaming command: one JSON object a line. The framework numbers the items
 * (`_seq` 1, 2, ...) and writes the one terminal line itself when the handler returns or a signal ends the call.
 */
export interface StreamOut {
  /** One item line; resolves once it is handed to the OS. Nothing is written after the terminal line. */
  item(item: Readonly<Record<string, unknown>>): Promise<void>;
  /** A sign of life while nothing changed: `heartbeat: true`, never numbered. */
  heartbeat(fields?: Readonly<Record<string, unknown>>): Promise<void>;
}

/** Where text for people is shown: the terminal's width, when stdout is one. */
export interface TextView {
  readonly width?: number;
}

/** The narrow view of the runtime a handler sees. */
export interface CommandContext {
  readonly cwd: string;
  /** A person at a terminal (stdin is a TTY): no default budget applies. */
  readonly interactive: boolean;
  /** The width of the terminal stdout shows on, for text that fits it; undefined when stdout is no terminal. */
  readonly stdoutWidth: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How a shell in cwd runs this program again (its words before the command's), as continue_command has it. */
  programWords(): readonly string[];
  /**
   * Report progress: `done` counts completed units and never decreases; `rows`, the rows done beside it when
   * the unit is another (an import measured in bytes, so that it has a total and an ETA).
   */
  progress(done: number, total?: number, unit?: ProgressUnit | string, rows?: number): void;
  /** Add a warning to the response. */
  warn(warning: WarningDetail): void;
  /** A line for people, on stderr. */
  log(message: string): void;
  /** True once a stop was requested (budget, signal, cancel); honour it at the next safe point. */
  readonly stopRequested: () => boolean;
  /**
   * Resolves once a requested stop is urgent (a signal, `job cancel`, the budget's last moment to commit): work
   * waiting for a piece still in flight (a chunk a queue worker holds) stops at its last safe point instead.
   */
  readonly stopUrgent?: Promise<void>;
  /**
   * A safe point of your own (not `checkpoint`, which tells it already): call `safePoint()` on reaching it and
   * `committed(ms)` with how long its commit took, so that a budget stops where the answer still fits.
   * Undefined when the call has no budget.
   */
  readonly pace?: Pace;
  /** The caller's stdin, spooled to a file before the work started, for a command that declares stdin. */
  readonly stdinPath: string | undefined;
  /** Why the stop was requested, as the cause a partial Outcome reports (budget, cancelled, timeout...). */
  readonly stopCause: () => Cause | undefined;
  /**
   * The caller's stdout, only for a call whose data streams there (`streamsStdout`); undefined otherwise,
   * because stdout then belongs to the envelope. Resolves once the text is handed to the OS.
   */
  readonly stdout: ((text: string) => Promise<void>) | undefined;
  /**
   * Names a file outside the state folder that belongs to the checkpoint (a partial output beside its
   * target): it is removed whenever the checkpoint is discarded (`job cancel`, a timeout, the work's end).
   * Call after `restore`.
   */
  scratchFile(path: string): void;
  /** Now, in ms; injected so that tests own the clock. */
  now(): number;
  /** Resolves `ms` from now on the same clock (a poll's pause). */
  sleep(ms: number): Promise<void>;
  /** A clock no wall-clock step moves (NTP, a resumed VM): what a job's liveness is judged on; injected too. */
  monotonic(): MonotonicReading;
  /** The item stream of a command that declares `streaming`; undefined otherwise (and under --no-stream). */
  readonly stream: StreamOut | undefined;
  /**
   * Calls `handler` on each SIGINT or SIGTERM while the call runs; returns a function that stops listening.
   * Only a `relay` command answers a signal itself (it passes it on); for others the framework answers.
   */
  onSignal(handler: (signal: 'SIGINT' | 'SIGTERM') => void): () => void;
  /**
   * The identity of this invocation (command, arguments, cwd, version, key): what jobs and checkpoints are keyed
   * by.
   */
  readonly invocationKey: string;
  /** The Redis URL of --queue (or STINT_QUEUE) on an interruptible command: its chunks run on `worker` processes. */
  readonly queue?: string;
  /**
   * A run through the queue tells which distinct `worker` processes (their ids) completed its chunks so far;
   * their count rides along in progress (`progress.workers`: the job's status) and in the final response
   * (`meta.workers`), and the ids are kept with the checkpoint, so a resumed run counts those of before too.
   */
  queueWorkers?(workers: readonly string[]): void;
  /**
   * The same identity without the idempotency key: tells "same key, other arguments" apart
   * (IDEMPOTENCY_KEY_REUSED).
   */
  readonly argumentsDigest: string;
  /**
   * Resumable commands call this before any work. Returns the last saved
   * state, or undefined when there is none, the fingerprint of the inputs
   * no longer matches, or `usable` refuses the state (its scratch files are
   * gone): then with a CHECKPOINT_DISCARDED warning.
   */
  restore<S>(fingerprint: unknown, usable?: (state: S) => boolean): Promise<Restored<S> | undefined>;
  /**
   * Saves state at a safe point (throttled unless forced; always when a stop
   * is pending) and answers whether the work must stop here.
   */
  checkpoint<S>(state: S, progress: Progress, force?: boolean): Promise<boolean>;
}

/** A checkpoint `ctx.restore` found: the saved state and the progress it had reached. */
export interface Restored<S> {
  readonly state: S;
  readonly progress: Progress;
}

/** What a handler returns. Success is exitCode 0 with data; anything else carries an error. */
export interface CommandResult<D = unknown> {
  readonly exitCode: ExitCode;
  readonly data?: D | null;
  readonly error?: ErrorDetail;
  readonly warnings?: readonly WarningDetail[];
  /** Extra response meta (e.g. `not_modified`, `idempotency_hit`); the framework's own keys win. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** A stored response to give exactly as it is (the job commands relay a job's own, duration included). */
  readonly verbatim?: Envelope;
  /**
   * What `--format text` prints on stdout for this answer, whatever its exit, in place of rendering `data`
   * (a relayed answer shown as its own command would show it; a job's status block). Never in JSON.
   */
  readonly text?: () => string | Promise<string>;
  /**
   * What a writer's successful answer claims, in a form its `answerHolds` can check later (a file's size and
   * inode, say): kept beside the answer for the key's repeats, never shown.
   */
  readonly claim?: unknown;
}

/** A kept answer as `answerHolds` sees it: the data given before, and the claim the result carried. */
export interface KeptClaim {
  readonly data: unknown;
  readonly claim: unknown;
}

/** A command's declaration: what `defineCommand` takes. The manifest and `--help` are built from it. */
export interface CommandSpec<
  F extends Readonly<Record<string, FlagSpec>> = Readonly<Record<string, FlagSpec>>,
  P extends readonly PositionalSpec[] = readonly PositionalSpec[],
  D = unknown,
> {
  /** Space-separated path: `analyze`, `job wait`. */
  readonly name: string;
  readonly description: string;
  readonly dangerLevel: DangerLevel;
  readonly positionals?: P;
  readonly flags?: F;
  readonly interruption?: Interruption;
  /** The command's own exit codes; 0 and, when interruptible, 14 are required. */
  readonly exitCodes: Readonly<Partial<Record<ExitCode, ExitCodeEntry>>>;
  /** Writers get --idempotency-key unless they set this to false (and then cannot resume). */
  readonly idempotencyKey?: boolean;
  /**
   * A writer's repeated --idempotency-key (a retry must not write twice): by default the framework keeps the first
   * successful answer under the key and answers a repeat with it (`data.effect: "noop"`, `meta.idempotency_hit: true`)
   * without running the handler, and refuses the key with other arguments (IDEMPOTENCY_KEY_REUSED, 6).
   * A command that keeps its runs in its own store and answers repeats itself sets this to false.
   */
  readonly keyedReplay?: boolean;
  /**
   * Whether a kept answer is still true (its output is still there, as written) before a repeated
   * --idempotency-key gets it again: false makes the repeat a new run under the key. Without it, the kept
   * answer is given as it is: the framework cannot see what a writer's effect was.
   */
  readonly answerHolds?: (kept: KeptClaim) => boolean | Promise<boolean>;
  /**
   * Asks before it acts (a mutating or destructive command that declares a boolean `dry-run` flag): the
   * framework adds `--yes` and `--non-interactive`; without `--yes` (or `--dry-run`) it refuses with
   * CONFIRMATION_REQUIRED (2) before the handler runs, unless a person at a terminal answers y at a prompt.
   * A confirmed answer carries `meta.confirmed: true`; the manifest says `interactive: true`.
   */
  readonly confirm?: boolean;
  readonly stdin?: StdinSpec;
  /**
   * The command runs other commands of this contract and relays their answers (`stint follow`). It may
   * exit INCOMPLETE (14) without declaring interruption (its callee's work goes on), and a signal does not
   * answer CANCELLED at once: the handler hears it (`ctx.onSignal`), passes it on, and returns; the call
   * then answers CANCELLED with the signal's exit (130/143) and the handler's data, marked `partial`,
   * unless the handler relays a final answer `verbatim` (the callee's work ended anyway).
   */
  readonly relay?: boolean;
  readonly examples?: readonly { readonly description: string; readonly command: string }[];
  /**
   * The shape of `data` when the command succeeds (and of a partial answer's, exit 3), as a JSON Schema the
   * manifest gives agents (`output_schema`): build it with data-schema.ts. A command without one says nothing.
   */
  readonly outputSchema?: DataSchema;
  /**
   * The worker-side map modules the command's chunked runs use, by name (module URLs:
   * `new URL('./my-map.js', import.meta.url).href`). A queue worker runs only the maps its program's commands
   * register here, so a run through --queue uses one of these.
   */
  readonly maps?: Readonly<Record<string, string>>;
  run(input: CommandInput<F, P>, ctx: CommandContext): Promise<CommandResult<D>>;
  /**
   * True for a call whose data is a stream on stdout (`export --output -`). Such a call answers on
   * stderr (its envelope is the last line there) and runs to its end without budget or job: a stream
   * into a pipe cannot pause and be continued by another call.
   */
  streamsStdout?(flags: FlagValues<F>): boolean;
  /**
   * The command's answer is a stream of JSON lines on stdout: the items it passes to
   * `ctx.stream`, then exactly one terminal line the framework writes (a `_summary` on success, else the
   * error envelope with `meta.items_emitted`); SIGINT ends it with CANCELLED (130). Such a command declares
   * no `interruption` and accepts no --idempotency-key (a writer sets `idempotencyKey: false`);
   * `--no-stream` gives the one envelope instead.
   */
  readonly streaming?: boolean;
  /** How `--format text` shows one stream item (or heartbeat) of a streaming command. */
  itemText?(item: Readonly<Record<string, unknown>>): string;
  /**
   * How `--format text` shows a successful `data`, fitted to `view.width` cells when stdout is a terminal (may be
   * async: a renderer loads its table code only when text is asked for, keeping JSON calls' start-up short).
   */
  text?(data: D, view: TextView): string | Promise<string>;
}
