import { analyzeCommand } from '../commands/analyze/analyze-command.js';
import { benchCommand } from '../commands/bench/bench-command.js';
import { benchResumeCommand } from '../commands/bench/bench-resume-command.js';
import { exportCommand } from '../commands/export/export-command.js';
import { followCommand } from '../commands/follow/follow-command.js';
import { importCommand } from '../commands/import/import-command.js';
import { STINT_CODE_SETS } from '../commands/stint-codes.js';
import { createProgram } from '../program/program-with-worker.js';
import type { Program } from '../program/program.js';
import { TOOL_VERSION } from './version.js';

/** The composition root of stint's own binary: its commands, built like any author's program. */
export function stintProgram(): Program {
  return createProgram({
    name: 'stint',
    version: TOOL_VERSION,
    description: 'long work under a time budget that never loses what was done',
    commands: [analyzeCommand, importCommand, exportCommand, followCommand, benchCommand, benchResumeCommand],
    codes: STINT_CODE_SETS,
  });
}
