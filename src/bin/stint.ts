#!/usr/bin/env node
import { runCli } from './run-cli.js';
import { stintProgram } from './stint-program.js';

await runCli(stintProgram);
