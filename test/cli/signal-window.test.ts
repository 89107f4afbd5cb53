import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envelopeOf, startCli } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';

// The answer's modules load only when such a signal comes (the router itself imports nothing).
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  test(`${signal} while the commands still load: one CANCELLED envelope, exit ${code}`, async () => {
    const running = startCli(['anything'], { program: programPath('never-loads') });
    assert.ok(await running.stderrLine(/^loading$/), 'the program got to loading its commands');
    running.kill(signal);
    const run = await running.done;
    const envelope = envelopeOf(run);
    assert.equal(run.code, code);
    assert.equal(envelope.error!.code, 'CANCELLED');
    assert.deepEqual(envelope.error!.context, { signal });
    assert.deepEqual(envelope.data, { partial: true });
  });
}
