import { join } from 'node:path';
import { STATE_DIR_ENV } from '../../runtime/storage/state-dir.js';
import { measureResume, resumeSteps } from './resume-cost.js';
import { SuiteName, type Suite } from './suite.js';

/**
 * Small chunks for the resume suite: a stop lands a few safe points past where it was asked for, so 10 % of a
 * small input must span several of them (fresh starts and continuations alike use them).
 */
export const RESUME_CHUNK_SIZE = 128 * 1024;

/** `stint analyze` of the input as whole processes, its jobs in a state folder of the benchmark's own. */
export const resumeSuite: Suite = {
  name: SuiteName.Resume,
  steps: (setup) => resumeSteps(setup.samples),
  async run(setup) {
    const argv = [process.execPath, setup.stintBin, 'analyze', setup.path, '--workers', String(setup.workers),
      '--chunk-size', String(RESUME_CHUNK_SIZE)];
    const env = { ...process.env, [STATE_DIR_ENV]: join(setup.stateRoot, 'resume') };
    delete env['AGENT_CALL_BUDGET_MS'];
    const options = { samples: setup.samples, stateDir: env[STATE_DIR_ENV]!, step: setup.step };
    const resume = await measureResume({ argv, cwd: process.cwd(), env }, options);
    return { figures: resume.figures, ratios: resume.ratios, resume };
  },
};
