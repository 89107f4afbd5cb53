// A target for `bench resume` whose stop overshoots on purpose, as one on a busy machine does: it counts to
// TOTAL, shows each step on a heartbeat line, and pauses on SIGINT with a continue_command and a checkpoint in its
// state folder. The first SIGINT that comes past 60 % goes unheeded (a marker outside that folder remembers it):
// only a seek is stopped so far on (to 90 %; a continuation is stopped at its first step), and that seek counts to
// the end, so that bench resume must take the stop back and ask for it earlier.
// Usage: node overshooting-counter.js <state-dir> <marker> [--budget ..] [--heartbeat-ms ..]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TOTAL = 100;
const STEP_MS = 15;
const [stateDir, marker] = process.argv.slice(2) as [string, string];
const UNHEEDED_PAST = 60;
const checkpoint = join(stateDir, 'done');
const command = `'${process.execPath}' '${process.argv[1]}' '${stateDir}' '${marker}'`;

const startAt = existsSync(checkpoint) ? Number(readFileSync(checkpoint, 'utf8')) : 0;
let done = startAt;

const show = () => process.stderr.write(`counter: [${done}/${TOTAL} steps]\n`);
const answer = (envelope: object, code: number) => {
  process.stdout.write(`${JSON.stringify(envelope)}\n`);
  process.exit(code);
};

let overshoots = false;
process.on('SIGINT', () => {
  if (overshoots) return;
  if (done >= UNHEEDED_PAST && !existsSync(marker)) {
    writeFileSync(marker, `SIGINT at ${done} unheeded\n`);
    overshoots = true;
    return;
  }
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
