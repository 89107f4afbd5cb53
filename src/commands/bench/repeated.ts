import { Bench } from 'tinybench';

/** How a repeated measurement runs: how many timed calls, whether one untimed call warms up first. */
export interface Repeat {
  readonly samples: number;
  readonly warmup: boolean;
  /** Called after every call, timed or not (a progress step). */
  readonly step: () => void;
}

/** The ms of `samples` timed calls of `fn` in this process, by tinybench (one task, no time budget). */
export async function timeRepeated(name: string, repeat: Repeat, fn: () => unknown): Promise<number[]> {
  const bench = new Bench({
    iterations: repeat.samples,
    time: 0,
    warmup: repeat.warmup,
    warmupIterations: 1,
    warmupTime: 0,
    retainSamples: true,
    throws: true,
  });
  bench.add(name, async () => {
    await fn();
    repeat.step();
  });
  await bench.run();
  const result = bench.tasks[0]!.result;
  if (!('latency' in result) || !result.latency.samples) throw new Error(`${name}: tinybench kept no samples`);
  return [...result.latency.samples];
}

/** Calls a repeated measurement makes: what a progress total counts. */
export const callsOf = (repeat: Pick<Repeat, 'samples' | 'warmup'>): number => repeat.samples + (repeat.warmup ? 1 : 0);
