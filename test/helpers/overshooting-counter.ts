// A target for `bench resume` whose stop overshoots on purpose, as one on a busy machine does: it counts to
// TOTAL, shows each step on a heartbeat line, and pauses on SIGINT with a continue_command and a checkpoint in its
// state folder. The `nth` run that starts past 40 % (a tally outside that folder counts them) takes no notice of
// SIGINT and counts to the end, so that bench resume must take the stop back and ask for it earlier.
// Usage: node overshooting-counter.js <state-dir> <tally> <nth> [--budget ..] [--heartbeat-ms ..]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TOTAL = 100;
const STEP_MS = 15;
const [stateDir, tally, nth] = process.argv.slice(2) as [string, string, string];
const checkpoint = join(stateDir, 'done');
const command = `'${process.execPath}' '${process.argv[1]}' '${stateDir}' '${tally}' ${nth}`;

const startAt = existsSync(checkpoint) ? Number(readFileSync(checkpoint, 'utf8')) : 0;
const runsPast = (existsSync(tally) ? Number(readFileSync(tally, 'utf8')) : 0) + (startAt > 0.4 * TOTAL ? 1 : 0);
writeFileSync(tally, String(runsPast));
const overshoots = startAt > 0.4 * TOTAL && runsPast === Number(nth);
let done = startAt;

const show = () => process.stderr.write(`counter: [${done}/${TOTAL} steps]\n`);
const answer = (envelope: object, code: number) => {
  process.stdout.write(`${JSON.stringify(envelope)}\n`);
  process.exit(code);
};

process.on('SIGINT', () => {
  if (overshoots) return;
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(checkpoint, String(done));
  const data = { continue_command: command, cancel_command: `rm -rf '${stateDir}'` };
  answer({ ok: false, data, error: { code: 'INTERRUPTED', message: 'stopped by SIGINT' } }, 130);
});

show();
const timer = setInterval(() => {
  done += 1;
  show();
  if (done < TOTAL) return;
  clearInterval(timer);
  answer({ ok: true, data: { counted: TOTAL } }, 0);
}, STEP_MS);
