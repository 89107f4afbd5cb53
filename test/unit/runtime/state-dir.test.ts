import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invocationKey } from '../../../src/runtime/call/invocation-key.js';
import { stateDirEnvOf, stateDirPath } from '../../../src/runtime/storage/state-dir.js';

const linux = { platform: 'linux', home: '/home/ann' } as const;

test("a program's state variable is its name upper-cased, other characters as _", () => {
  assert.equal(stateDirEnvOf('stint'), 'STINT_HOME');
  assert.equal(stateDirEnvOf('mytool'), 'MYTOOL_HOME');
  assert.equal(stateDirEnvOf('demo-jobs.v2'), 'DEMO_JOBS_V2_HOME');
});

test("a program's state folder: its own variable, else $XDG_STATE_HOME/<name>, else ~/.local/state/<name>", () => {
  assert.equal(stateDirPath({ MYTOOL_HOME: '/m', STINT_HOME: '/s', XDG_STATE_HOME: '/x' }, 'mytool', linux), '/m');
  assert.equal(stateDirPath({ STINT_HOME: '/s', XDG_STATE_HOME: '/x' }, 'mytool', linux), '/x/mytool', "STINT_HOME is stint's alone");
  assert.equal(stateDirPath({ STINT_HOME: '/s' }, 'stint', linux), '/s');
  assert.equal(stateDirPath({}, 'mytool', linux), '/home/ann/.local/state/mytool');
  assert.equal(stateDirPath({}, 'stint', linux), '/home/ann/.local/state/stint');
});

test('the default folder follows the OS on macOS and Windows', () => {
  assert.equal(stateDirPath({}, 'mytool', { platform: 'darwin', home: '/Users/ann' }), '/Users/ann/Library/Application Support/mytool');
  const windows = { platform: 'win32', home: 'C:\\Users\\ann' } as const;
  assert.equal(stateDirPath({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'mytool', windows), 'C:\\Users\\ann\\AppData\\Local\\mytool');
  assert.equal(stateDirPath({}, 'mytool', windows), 'C:\\Users\\ann\\AppData\\Local\\mytool');
  assert.equal(stateDirPath({ MYTOOL_HOME: 'D:\\state' }, 'mytool', windows), 'D:\\state');
});

test('two programs with the same command, arguments, folder and version are not the same invocation', () => {
  const call = { command: 'count', positionals: { steps: 3 }, flags: {}, cwd: '/w', toolVersion: '1.0.0' };
  assert.notEqual(invocationKey({ program: 'demo-jobs', ...call }), invocationKey({ program: 'other-jobs', ...call }));
  assert.equal(invocationKey({ program: 'demo-jobs', ...call }), invocationKey({ ...call, program: 'demo-jobs' }));
});
