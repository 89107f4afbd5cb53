/**
 * A resumable fold: it receives chunks in order and yields its state after
 * each; every yield is a safe point where the framework reports progress,
 * checkpoints, and may stop it. A yielded state must hold every chunk the
 * fold has pulled so far: the checkpoint pairs it with the position after them.
 */
export type FoldOver<T, S> = (chunks: AsyncIterable<T>, state: S) => AsyncGenerator<S, S, void>;

/** How a driven fold ended: at its own end, or at a safe point that asked to stop. */
export interface Driven<S> {
  readonly stopped: boolean;
  readonly state: S;
  /**
   * Stopped by an urgent stop while the fold waited for its next chunk: at the last safe point, which had
   * asked to go on (a throttled save may have skipped it). The fold and its chunks are left as they were.
   */
  readonly urgent?: boolean;
}

/**
 * Runs a fold over its chunks. After each yield the safe point checkpoints
 * and answers whether to stop; a stop closes the fold, then its chunks.
 * Once `urgent` resolves, a fold waiting for a chunk (one a queue worker holds
 * may not come for long) stops at its last safe point instead; the chunks it
 * pulled since then, if any, are waited for, since the state may hold part of them.
 */
export async function driveFold<T, S>(
  fold: FoldOver<T, S>,
  chunks: AsyncGenerator<T>,
  state: S,
  safePoint: (state: S) => Promise<boolean>,
  urgent?: Promise<void>,
): Promise<Driven<S>> {
  const pull = new WaitingPull(chunks, urgent);
  const folding = fold(pull.chunks(), state);
  let last = state;
  for (;;) {
    const step = await pull.unlessStranded(folding.next());
    if (step === undefined) return { stopped: true, state: last, urgent: true };
    if (step.done) return { stopped: false, state: step.value };
    pull.yielded();
    last = step.value;
    if (await safePoint(step.value)) {
      await folding.return(step.value);
      await chunks.return(undefined);
      return { stopped: true, state: step.value };
    }
  }
}

/**
 * The chunks as the fold pulls them: a pull made at a safe point (nothing pulled since the fold's last yield)
 * is given up once the stop is urgent; the fold then waits for ever, unchanged. Each wait gets its own promise
 * (one shared pending promise raced at every chunk would keep every chunk it was raced with).
 */
class WaitingPull<T> {
  private sinceYield = false;
  private isUrgent = false;
  private stranded = false;
  private readonly urgentAlarm: Alarm = {};
  private readonly strandedAlarm: Alarm = {};

  constructor(private readonly source: AsyncGenerator<T>, private readonly urgent: Promise<void> | undefined) {
    void urgent?.then(() => {
      this.isUrgent = true;
      this.urgentAlarm.wake?.();
    });
  }

  /** What the fold pulls; a fold that ends early (or is closed at a stop) closes the chunks. */
  async *chunks(): AsyncGenerator<T> {
    try {
      for (;;) {
        const next = this.source.next();
        const step = this.sinceYield || !this.urgent ? await next : await this.unlessUrgent(next);
        if (step === undefined) {
          this.stranded = true;
          this.strandedAlarm.wake?.();
          return await forever();
        }
        if (step.done) return;
        this.sinceYield = true;
        yield step.value;
      }
    } finally {
      await this.source.return(undefined);
    }
  }

  yielded(): void {
    this.sinceYield = false;
  }

  /** The fold's next step, or undefined once its pull was given up. */
  unlessStranded<R>(step: Promise<R>): Promise<R | undefined> {
    return wakeable(step, this.stranded, this.strandedAlarm);
  }

  /** The next chunk, or undefined once the stop is urgent. */
  private unlessUrgent(next: Promise<IteratorResult<T>>): Promise<IteratorResult<T> | undefined> {
    return wakeable(next, this.isUrgent, this.urgentAlarm);
  }
}

/** Where a wait leaves its wake while it waits. */
interface Alarm {
  wake?: () => void;
}

/** The work's outcome, or undefined once woken (at once when `woken` already). A late failure is no one's then. */
function wakeable<R>(work: Promise<R>, woken: boolean, alarm: Alarm): Promise<R | undefined> {
  return new Promise((resolve, reject) => {
    const wake = () => resolve(undefined);
    alarm.wake = wake;
    void work.then(resolve, reject).finally(() => {
      if (alarm.wake === wake) delete alarm.wake;
    });
    if (woken) wake();
  });
}

const forever = (): Promise<never> => new Promise<never>(() => undefined);
