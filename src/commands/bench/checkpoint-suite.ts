import { join } from 'node:path';
import { CHECKPOINT_INTERVAL_MS } from '../../runtime/call/call-checkpoint.js';
import { checkpointWriter } from './checkpoint-write.js';
import { engineRun, timeEngine } from './engine-repeat.js';
import { figureOf, FigureUnit, median, ratioOf } from './figure.js';
import { timeRepeated } from './repeated.js';
import { SuiteName, type Suite } from './suite.js';
import { DEFAULT_CHUNK_SIZE } from '../engine-flags.js';

/** Writes are fast and cheap to repeat: enough of them for a steady median. */
const WRITES = 30;

/**
 * Checkpoint cost two ways: runs with a checkpoint at every safe point against runs with none (the worst case,
 * and noisy on a shared machine), and directly: one write of analyze's state, times the writes a run makes at the
 * default interval (one a second), over the run's time.
 */
export const checkpointSuite: Suite = {
  name: SuiteName.Checkpoint,
  steps: (setup) => 2 * (setup.samples + 1) + WRITES + 1,
  async run(setup) {
    const every = await timeEngine(setup, 'checkpoints on', engineRun(setup, { checkpointIntervalMs: 0 }));
    const none = await timeEngine(setup, 'checkpoints off', engineRun(setup));
    const chunks = Math.ceil(setup.bytes / DEFAULT_CHUNK_SIZE);
    const on = figureOf('checkpoint.on', `engine run, a checkpoint at each of ~${chunks} safe points`,
      FigureUnit.Milliseconds, every);
    const off = figureOf('checkpoint.off', 'engine run, no checkpoint', FigureUnit.Milliseconds, none);
    const writer = await checkpointWriter(setup.path, join(setup.stateRoot, 'checkpoint-write'));
    let writes: number[];
    try {
      const repeat = { samples: WRITES, warmup: true, step: setup.step };
      writes = await timeRepeated('checkpoint write', repeat, writer.write);
    } finally {
      await writer.close();
    }
    const write = figureOf('checkpoint.write', "one checkpoint write of analyze's state", FigureUnit.Milliseconds,
      writes);
    const perRun = Math.max(1, Math.ceil(median(none) / CHECKPOINT_INTERVAL_MS));
    const spent = figureOf('checkpoint.writes_per_run',
      `checkpoint writes of one run at the default interval (${perRun} x one write)`, FigureUnit.Milliseconds,
      writes.map((ms) => ms * perRun));
    return {
      figures: [on, off, write, spent],
      ratios: [
        ratioOf('checkpoint.on_vs_off', 'checkpoint at every safe point / none (time)', on, off),
        ratioOf('checkpoint.writes_vs_run', 'checkpoint writes / run time, default interval', spent, off),
      ],
    };
  },
};
