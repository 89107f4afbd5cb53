#!/usr/bin/env node
// Signals are answered from the first moment: the router is installed before the
// rest of stint loads (the static imports of this file are only the router's).
import { installSignalRouter } from './signal-router.js';

installSignalRouter();
const { runCli } = await import('./run-cli.js');
// The commands load inside runCli: a declaration refused as its module loads still answers with an envelope.
await runCli(async () => (await import('./stint-program.js')).stintProgram());
