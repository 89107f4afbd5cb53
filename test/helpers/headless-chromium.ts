// Debian's Chromium for tests that look at what a browser draws: found, or
// installed by .ci/chromium.sh; when neither can be, the reason to skip.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';

/** A guard for an apt-get install on a slow mirror, not a claim about speed. */
const INSTALL_GUARD_MS = 15 * 60_000;

export function findChromium(): { path: string } | { why: string } {
  const found = spawnSync('bash', [join(REPO_ROOT, '.ci', 'chromium.sh')], {
    encoding: 'utf8', timeout: INSTALL_GUARD_MS,
  });
  const path = found.stdout.trim().split('\n').pop() ?? '';
  if (found.status === 0 && path) return { path };
  const said = found.stderr.trim().split('\n').pop() || `exit ${found.status ?? found.signal}`;
  return { why: `no headless Chromium here (${said})` };
}

/** Opens `file` in headless Chromium and writes what it draws, width x height, to `png`. */
export function screenshot(chromium: string, file: string, png: string, width: number, height: number): void {
  const profile = mkdtempSync(join(tmpdir(), 'stint-chromium-'));
  try {
    const shot = spawnSync(chromium, [
      '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--no-first-run',
      `--user-data-dir=${profile}`, `--screenshot=${png}`, `--window-size=${width},${height}`, `file://${file}`,
    ], { encoding: 'utf8', timeout: 120_000 });
    if (shot.status !== 0) throw new Error(`chromium exited ${shot.status ?? shot.signal}: ${shot.stderr.slice(-500)}`);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
