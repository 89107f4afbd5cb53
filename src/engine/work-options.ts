import { checkWhole } from '../contract/option-check.js';

/** The engine's knobs that processFile, processFiles and processStdin take. */
interface EngineKnobs {
  readonly workers?: number;
  readonly workerYoungGenerationMb?: number;
  readonly chunkSize?: number;
  readonly maxRecordBytes?: number;
}

/** Refuses, with ARG_ERROR, a thread count or size that is given but not a whole number of at least 1. */
export function checkEngineKnobs(api: string, work: EngineKnobs): void {
  checkWhole(api, 'workers', work.workers, 1);
  checkWhole(api, 'workerYoungGenerationMb', work.workerYoungGenerationMb, 1);
  checkWhole(api, 'chunkSize', work.chunkSize, 1);
  checkWhole(api, 'maxRecordBytes', work.maxRecordBytes, 1);
}
