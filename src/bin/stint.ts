#!/usr/bin/env node
// Signals are answered from the first moment: the router is installed before the
// rest of stint loads (the static imports of this file are only the router's).
import * as nodeModule from 'node:module';
import { installSignalRouter } from './signal-router.js';

installSignalRouter();
// Node 22.1 and later keep the compiled modules on disk between calls (in the temporary folder): an agent's
// thousandth call starts faster. Node 20 has no such cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { runCli } = await import('./run-cli.js');
// The commands load inside runCli: a declaration refused as its module loads still answers with an envelope.
await runCli(async () => (await import('./stint-program.js')).stintProgram());
