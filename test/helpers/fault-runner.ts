// Runs one fault schedule against the BUILT stint: its steps (each a call
// with a fault landing on it), then the work driven to its end the way an
// agent does, then every invariant of the model checked. Findings are
// collected, not thrown, so a soak can count them.
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Envelope } from '../../src/contract/envelope.js';
import { shellJoin } from '../../src/runtime/cli/shell-quote.js';
import { envelopeOf, type CliRun } from './run-cli.js';
import { STINT_BIN } from './paths.js';
import { startLine, type LineProcess } from './fault-process.js';
import { Anchor, ExportFault, Fault, Target, Workload, type Schedule, type Step } from './fault-schedule.js';
import {
  CommandName, EXPLAINED_ERRORS, Invariant, KEY_COLUMN, SIGNAL_EXIT, commandOfLine, csvRecords, isConsistentSnapshot,
  type Declared, type Violation,
} from './fault-model.js';
import { isProcessOf } from './fault-state.js';
import { ProgressWatch, type CallProgress } from './fault-progress.js';

type Json = Envelope<Record<string, unknown>>;

/** One call of the schedule and what became of it. */
export interface Call {
  readonly label: string;
  readonly line: string;
  readonly command: CommandName;
  readonly sent: NodeJS.Signals[];
  /** Where the signal was aimed: at start-up (spawn) or once progress showed. */
  anchor?: Anchor;
  run?: CliRun & { hung: boolean };
  envelope?: Json;
  /** What its observers saw of progress (answer, status files, heartbeats). */
  progress?: CallProgress;
  /** It answered the work's end (0 or 3). */
  endedWork?: boolean;
  /** Its process, so that a finding naming a pid names the call. */
  pid?: number;
}

/** Where a schedule runs: its own STINT_HOME, input, table and export files. */
export interface FaultWorld {
  readonly dir: string;
  readonly home: string;
  readonly input: string;
  readonly db: string;
  readonly env: Record<string, string>;
}

export function faultWorld(dir: string, slowSave?: Schedule['slowSave']): FaultWorld {
  mkdirSync(dir, { recursive: true });
  const home = join(dir, 'home');
  // Checkpoints at every safe point, so a kill lands between two of them; decreasing progress is an error.
  const slow: Record<string, string> = slowSave ? { STINT_TEST_SLOW_SAVE: `${slowSave.every}:${slowSave.ms}` } : {};
  const env = { STINT_HOME: home, STINT_TEST_MODE: '1', STINT_CHECKPOINT_INTERVAL_MS: '0', ...slow };
  return { dir, home, input: join(dir, 'input.csv'), db: join(dir, 'table.db'), env };
}

/** How a signal or a cancel is aimed at a call. */
interface Aim {
  readonly anchor: Anchor;
  readonly delayMs: number;
}

const SIGNAL_OF: Partial<Record<Fault | ExportFault, NodeJS.Signals>> = {
  [Fault.Sigint]: 'SIGINT',
  [Fault.Sigterm]: 'SIGTERM',
  [Fault.KillFront]: 'SIGKILL',
  // ExportFault.Sigint and .Sigterm are the same words as Fault's.
  [ExportFault.Kill]: 'SIGKILL',
};
/** A continuation loop not ended after this many answers finishes with --budget 0 (slow is no finding; flat is). */
const MAX_DRIVE_TURNS = 30;
const FLAT_TURNS = 3;
const FINISH_ATTEMPTS = 5;
const PREVIOUS_OUTPUT = 'previous content\n';

const budgetWord = (ms: number) => (ms === 0 ? '0' : `${ms}ms`);

export class ScheduleRunner {
  readonly calls: Call[] = [];
  readonly violations: Violation[] = [];
  /**
   * Continuations that made no progress. Not a violation: a budget shorter than a loaded machine's
   * start-up cannot reach a safe point, and the agent loop's answer is to escalate the budget, which drive() does.
   */
  readonly stalls: string[] = [];
  /** Calls a signal ended while Node was still starting (no answer possible; see check()). */
  startupDeaths = 0;
  /** kill -9s delivered (front and supervisor). */
  kills = 0;
  private cancels = 0;
  private sigints = 0;
  private lastContinue: string | undefined;
  private exports = 0;
  /** Every `done` anyone sees: answers, status files, heartbeats. */
  private readonly progress: ProgressWatch;

  constructor(
    readonly schedule: Schedule,
    readonly world: FaultWorld,
    readonly declared: Declared,
    private readonly input: string[][],
  ) {
    const workload = schedule.workload === Workload.Analyze ? 'analyze' : 'import';
    this.progress = new ProgressWatch(world.home, workload, (detail) => this.violate(Invariant.Progress, detail));
  }

  /** The original call's words, with its budget. */
  original(budgetMs: number): string {
    const s = this.schedule;
    const verb = s.workload === Workload.Analyze ? 'analyze' : 'import';
    const common = [verb, this.world.input, '--chunk-size', s.chunkSize, '--workers', String(s.workers), '--heartbeat-ms', '20'];
    const upsert = s.workload === Workload.Upsert ? ['--key', KEY_COLUMN] : [];
    const writer = s.workload === Workload.Analyze ? [] : ['--into', this.world.db, ...upsert];
    const key = s.explicitKey ? ['--idempotency-key', `fault-${s.seed}`] : [];
    return shellJoin([process.execPath, STINT_BIN, ...common, ...writer, ...key, '--budget', budgetWord(budgetMs)]);
  }

  private violate(invariant: Invariant, detail: string): void {
    this.violations.push({ invariant, detail });
  }

  /** Runs a line, lands the signal (if any) where aimed, and checks the answer. */
  async call(label: string, line: string, signal?: NodeJS.Signals, aim?: Aim): Promise<Call> {
    const call: Call = { label, line, command: commandOfLine(line), sent: [], progress: this.progress.begin(label) };
    this.calls.push(call);
    const proc = startLine(line, this.world.env);
    call.pid = proc.pid;
    const watching = watchStatuses(call.progress!);
    if (signal && aim) await this.land(proc, call, signal, aim);
    call.run = await proc.done;
    watching();
    this.check(call);
    return call;
  }

  private async arrive(proc: LineProcess, aim: Aim): Promise<void> {
    await (aim.anchor === Anchor.Spawn ? proc.execd() : proc.progressed());
    await sleep(aim.delayMs);
  }

  private async land(proc: LineProcess, call: Call, signal: NodeJS.Signals, aim: Aim): Promise<void> {
    await this.arrive(proc, aim);
    if (proc.ended()) return;
    // Counted before the signal: the answer it causes is checked against them.
    if (signal === 'SIGKILL') this.kills++;
    if (signal === 'SIGINT') this.sigints++;
    call.sent.push(signal);
    call.anchor = aim.anchor;
    process.kill(proc.pid, signal);
  }

  /** Every call's answer: one valid envelope, a declared exit code, an error its faults explain. */
  private check(call: Call): void {
    call.progress?.heartbeats(call.run!.stderr);
    this.checkAnswer(call);
    call.progress?.end();
    // The work ended: an identical call after it starts over (or replays), so its progress begins anew.
    if (call.endedWork) this.progress.startOver();
  }

  private checkAnswer(call: Call): void {
    const run = call.run!;
    const what = `${call.label}: ${call.line.replace(`${process.execPath} ${STINT_BIN}`, 'stint')}`;
    if (run.hung) return this.violate(Invariant.Hang, `${what} still ran after the guard`);
    if (run.signal === 'SIGKILL' && call.sent.includes('SIGKILL')) return;
    if (run.signal && call.sent.includes(run.signal) && !run.stdout && call.anchor === Anchor.Spawn) {
      // Node itself was still starting: its own start-up handlers re-raise the signal before any of
      // stint's code runs, as for any program. From stint's first line on, a signal is answered.
      this.startupDeaths++;
      return;
    }
    if (run.signal && call.sent.includes(run.signal)) {
      // Before its handlers are installed (start-up) or after they are removed (its answer already out).
      const when = run.stdout ? `after printing ${run.stdout.trim().slice(0, 160)}` : 'having printed nothing';
      const detail = `${what} died of ${run.signal} ${when}; stderr: ${run.stderr.slice(-300)}`;
      return this.violate(Invariant.SignalAnswered, detail);
    }
    try {
      call.envelope = envelopeOf(run);
    } catch (error) {
      const why = (error as Error).message.slice(0, 400);
      const detail = `${what} exit ${run.code} signal ${run.signal}: ${why}; stderr: ${run.stderr.slice(-400)}`;
      return this.violate(Invariant.Envelope, detail);
    }
    const code = call.envelope.meta.exit_code;
    const allowed = this.declared.exitsOf(call.command);
    for (const signal of call.sent) if (signal === 'SIGINT' || signal === 'SIGTERM') allowed.add(SIGNAL_EXIT[signal]);
    if (!allowed.has(code)) {
      const sent = call.sent.join(',') || 'nothing';
      this.violate(Invariant.ExitCode, `${what} exit ${code} is not declared by ${call.command} for this call (sent: ${sent})`);
    }
    this.explain(call, what);
    this.follow(call);
  }

  private explain(call: Call, what: string): void {
    const error = call.envelope!.error;
    if (!error) return;
    const explained = error.code === EXPLAINED_ERRORS.Incomplete || error.code === EXPLAINED_ERRORS.Locked
      || (error.code === EXPLAINED_ERRORS.Cancelled && (this.sigints + this.cancels > 0 || call.sent.includes('SIGTERM')))
      || (error.code === EXPLAINED_ERRORS.Lost && this.kills > 0)
      || (call.command === CommandName.Export && ['TABLE_NOT_FOUND', 'TABLE_UNREADABLE'].includes(error.code));
    if (explained) return;
    const detail = `${what} answered ${error.code} (exit ${call.envelope!.meta.exit_code}): ${error.message.slice(0, 300)}`;
    this.violate(Invariant.ExplainedError, detail);
  }

  /** Remembers the continuation, and checks that no answer or heartbeat shows progress going back. */
  private follow(call: Call): void {
    const envelope = call.envelope!;
    call.progress?.answer(envelope);
    // An export's continuation is not the workload's: drive() must continue the import or analyze.
    const workload = envelope.meta.command !== 'export';
    const code = envelope.meta.exit_code;
    call.endedWork = workload && (code === 0 || code === 3);
    if (code !== 14) {
      if (workload) this.lastContinue = undefined;
      return;
    }
    if (workload) this.lastContinue = (envelope.data as { continue_command: string }).continue_command;
  }

  private lineOf(s: Step): string {
    return s.target === Target.Continue && this.lastContinue ? this.lastContinue : this.original(s.budgetMs);
  }

  async step(s: Step, k: number): Promise<void> {
    const label = `step ${k + 1} ${s.fault}`;
    const line = this.lineOf(s);
    const aim = { anchor: s.anchor, delayMs: s.delayMs };
    switch (s.fault) {
      case Fault.Sigint:
      case Fault.Sigterm:
      case Fault.KillFront:
        await this.call(label, line, SIGNAL_OF[s.fault], aim);
        return;
      case Fault.KillSupervisor:
        return this.killSupervisor(label, line, s.delayMs);
      case Fault.Cancel:
        return this.cancelDuring(label, line, aim);
      case Fault.Repeat:
        await this.call(`${label} #1`, line);
        await this.call(`${label} #2`, line);
        return;
      case Fault.Concurrent:
        await Promise.all([this.call(`${label} #1`, line), this.call(`${label} #2`, line)]);
        return;
      case Fault.Export:
        return this.exportStep(label, line, s);
      default:
        await this.call(label, line);
    }
  }

  private jobCommand(verb: 'cancel' | 'wait', id: string): string {
    return shellJoin([process.execPath, STINT_BIN, 'job', verb, id, ...(verb === 'cancel' ? ['--yes'] : [])]);
  }

  /** A call that answers 14 running leaves a supervisor: kill -9 it after the step's delay. */
  private async killSupervisor(label: string, line: string, delayMs: number): Promise<void> {
    const call = await this.call(label, line);
    const data = call.envelope?.data as { state?: string; job_id?: string } | undefined;
    if (call.envelope?.meta.exit_code !== 14 || data?.state !== 'running') return;
    await sleep(delayMs);
    const pid = this.statusOf(data.job_id!)?.pid;
    if (!pid || !isProcessOf(pid, this.world.home)) return;
    this.kills++;
    process.kill(pid, 'SIGKILL');
    while (isProcessOf(pid, this.world.home)) await sleep(10);
  }

  private statusOf(id: string): { state: string; pid?: number } | undefined {
    try {
      const text = readFileSync(join(this.world.home, 'jobs', id, 'status.json'), 'utf8');
      return JSON.parse(text) as { state: string; pid?: number };
    } catch {
      return undefined;
    }
  }

  /** The job a call of this schedule runs now: the one job folder in a running or paused state. */
  private liveJob(): string | undefined {
    try {
      const live = (id: string) => ['running', 'paused'].includes(this.statusOf(id)?.state ?? '');
      return readdirSync(join(this.world.home, 'jobs')).find(live);
    } catch {
      return undefined;
    }
  }

  /** `job cancel` of the step's job, aimed like a signal; after its 14, when the call answered first. */
  private async cancelDuring(label: string, line: string, aim: Aim): Promise<void> {
    const call: Call = { label, line, command: commandOfLine(line), sent: [], progress: this.progress.begin(label) };
    this.calls.push(call);
    const proc = startLine(line, this.world.env);
    call.pid = proc.pid;
    await this.arrive(proc, aim);
    let id = proc.ended() ? undefined : this.liveJob();
    if (!id) {
      // The call answered first (or its job is not there yet): cancel the job its 14 names, if any.
      call.run = await proc.done;
      const answer = tryEnvelope(call.run);
      if (answer?.meta.exit_code === 14) id = (answer.data as { job_id: string }).job_id;
    }
    if (id) {
      this.cancels++;
      await this.call(`${label} (job cancel ${id})`, this.jobCommand('cancel', id));
    }
    call.run ??= await proc.done;
    const answered = (tryEnvelope(call.run)?.data as { job_id?: string } | null)?.job_id;
    if (id && answered !== undefined && answered !== id) {
      // The cancel ended the job before this call could take it over, so the call began a new job after the
      // cancel: its figures start over (an import's kept rows reappear in them from its first commit on).
      this.progress.startOver();
      call.progress = this.progress.begin(label);
    }
    this.check(call);
    // The cancel discarded the checkpoint: the next call starts from nothing.
    if (id) this.progress.startOver();
  }

  /** An export (maybe signalled, maybe beside an import call, maybe to a symlink): all or nothing, link kept. */
  private async exportStep(label: string, importLine: string, s: Step): Promise<void> {
    const plan = s.export!;
    const n = ++this.exports;
    const out = join(this.world.dir, `export-${n}.csv`);
    const target = join(this.world.dir, `export-${n}-target.csv`);
    writeFileSync(plan.symlink ? target : out, PREVIOUS_OUTPUT);
    if (plan.symlink) symlinkSync(target, out);
    const budget = this.declared.hasFlag(CommandName.Export, 'budget') ? ['--budget', budgetWord(plan.budgetMs)] : [];
    const words = [process.execPath, STINT_BIN, 'export', this.world.db, '--output', out];
    const line = shellJoin([...words, ...budget]);
    const beside = plan.besideImport ? this.call(`${label} (import)`, importLine) : undefined;
    if (beside) await sleep(s.delayMs);
    const signal = SIGNAL_OF[plan.fault];
    const aim = { anchor: Anchor.Spawn, delayMs: Math.floor(s.delayMs / 2) };
    let exported = await this.call(`${label} (export)`, line, signal, aim);
    await beside;
    // A paused export is the caller's to finish: follow it, as an agent would, so no job is left paused.
    for (let turn = 1; turn <= MAX_DRIVE_TURNS; turn++) {
      const next = (exported.envelope?.data as { continue_command?: string } | null)?.continue_command;
      if (next === undefined) break;
      exported = await this.call(`${label} (export, continued ${turn})`, next);
    }
    if (exported.envelope?.meta.exit_code === 14) {
      // Still paused after many short continuations (a loaded machine moves little in each): an agent's answer
      // is to escalate the budget, the identical call with none, as drive() does. Counted, not a finding.
      this.stalls.push(`the export was still paused after ${MAX_DRIVE_TURNS} continuations`);
      exported = await this.call(`${label} (export, without a budget)`, shellJoin([...words, '--budget', '0']));
    }
    this.checkExport(exported, out, plan.symlink);
  }

  private checkExport(call: Call, out: string, symlink: boolean): void {
    if (symlink && !lstatSync(out).isSymbolicLink()) {
      this.violate(Invariant.ExportSymlink, `${call.label}: ${out} was a symlink and is now a regular file`);
    }
    // Through the link when it is kept; the file that replaced it when not.
    const text = readFileSync(out, 'utf8');
    if (call.envelope?.meta.exit_code === 0) {
      if (!isConsistentSnapshot(csvRecords(text), this.input, this.schedule.workload)) {
        const detail = `${call.label}: exit 0, but the file is no state the table can have had (${text.length} bytes)`;
        this.violate(Invariant.ExportAtomic, detail);
      }
    } else if (text !== PREVIOUS_OUTPUT) {
      const end = `exit ${call.run?.code}, signal ${call.run?.signal}`;
      this.violate(Invariant.ExportAtomic, `${call.label}: no success (${end}) yet the output changed`);
    }
  }

  /**
   * Drives the work to its end like an agent: continue_command while 14; the
   * original call after a lost, cancelled, interrupted or locked answer; and
   * after three flat continuations (a finding) or many slow ones, the
   * original call with --budget 0.
   */
  async drive(): Promise<Call | undefined> {
    let line = this.lastContinue ?? this.original(this.schedule.driveBudgetMs);
    let flat = 0;
    let best = -1;
    for (let turn = 1; turn <= MAX_DRIVE_TURNS; turn++) {
      const call = await this.call(`drive ${turn}`, line);
      const code = call.envelope?.meta.exit_code;
      if (code === 0 || code === 3) return call;
      if (code !== 14) {
        line = this.original(this.schedule.driveBudgetMs);
        continue;
      }
      const data = call.envelope!.data as { continue_command: string; progress: { done: number } };
      flat = data.progress.done > best ? 0 : flat + 1;
      best = Math.max(best, data.progress.done);
      if (flat >= FLAT_TURNS) {
        const shown = line.replace(`${process.execPath} ${STINT_BIN}`, 'stint');
        this.stalls.push(`progress.done stayed at ${best} over ${FLAT_TURNS} continuations (${shown})`);
        break;
      }
      line = data.continue_command;
    }
    for (let attempt = 1; attempt <= FINISH_ATTEMPTS; attempt++) {
      const call = await this.call(`finish ${attempt}`, this.original(0));
      if (call.envelope?.meta.exit_code === 0 || call.envelope?.meta.exit_code === 3) return call;
    }
    this.violate(Invariant.FinalAnswer, `the work did not end after ${FINISH_ATTEMPTS} calls with --budget 0`);
    return undefined;
  }
}

/** Reads the jobs' status files while a call runs (as `job status` and `job watch` would); returns the stop. */
function watchStatuses(progress: CallProgress): () => void {
  const timer = setInterval(() => progress.statuses(), 25);
  return () => {
    clearInterval(timer);
    progress.statuses();
  };
}

function tryEnvelope(run: CliRun): Json | undefined {
  try {
    return envelopeOf(run);
  } catch {
    return undefined;
  }
}
