import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runJson } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';

// `help <command>` and `-V` are the framework's, so every program built on stint has them: stint's own
// commands and a fixture program's are both asked.
const programs = [
  { name: 'stint', options: {} },
  { name: 'demo-tool', options: { program: programPath('demo-tool') } },
];
const helpCases = [
  { word: ['help'], flag: ['--help'] },
  { word: ['help', 'manifest'], flag: ['manifest', '--help'] },
  { word: ['help', 'job'], flag: ['job', '--help'] },
  { word: ['help', 'job', 'wait'], flag: ['job', 'wait', '--help'] },
];

for (const { name, options } of programs) {
  describe(`${name}: help as a word`, () => {
    for (const { word, flag } of helpCases) {
      test(`"${word.join(' ')}" prints what "${flag.join(' ')}" prints`, async () => {
        const asText = (args: string[]) => runCli([...args, '--format', 'text'], options);
        const [byWord, byFlag] = await Promise.all([asText(word), asText(flag)]);
        assert.equal(byWord.code, 0);
        assert.match(byWord.stdout, new RegExp(`Usage: ${name}`));
        assert.equal(byWord.stdout, byFlag.stdout);
        assert.equal(byWord.stderr, '');
      });
    }

    test('piped, "help job wait" answers the help envelope and the help text on stderr, as --help does', async () => {
      const byWord = await runJson(['help', 'job', 'wait'], options);
      const byFlag = await runJson(['job', 'wait', '--help'], options);
      assert.equal(byWord.run.code, 0);
      assert.equal(byWord.envelope.meta['help'], true);
      assert.equal(byWord.envelope.meta.command, 'job wait');
      assert.equal(byWord.run.stderr, byFlag.run.stderr);
      assert.match(byWord.run.stderr, /Usage: \S+ job wait <id>/);
    });

    test('-V is --version', async () => {
      const [short, long] = await Promise.all([runJson(['-V'], options), runJson(['--version'], options)]);
      assert.deepEqual(short.envelope.data, long.envelope.data);
      assert.equal((short.envelope.data as { name: string }).name, name);
      const text = await runCli(['-V', '--format', 'text'], options);
      assert.match(text.stdout, new RegExp(`^${name} \\d+\\.\\d+\\.\\d+\\n$`));
    });
  });
}

test('help is still an ordinary word after a command: a positional, not a request for help', async () => {
  const { envelope } = await runJson(['echo', 'help'], { program: programPath('demo-tool') });
  assert.equal(envelope.meta.exit_code, 0);
  assert.equal(envelope.meta['help'], undefined);
  assert.equal((envelope.data as { positionals: { word: string } }).positionals.word, 'help');
});

test('help for a command that does not exist is ARG_ERROR with a suggestion, by word and by flag', async () => {
  for (const args of [['help', 'job', 'wat'], ['job', 'wat', '--help']]) {
    const { run, envelope } = await runJson(args);
    assert.equal(run.code, 2, args.join(' '));
    assert.equal(envelope.error?.code, 'ARG_ERROR');
    assert.equal(envelope.error?.suggestion, 'did you mean job wait?');
  }
});
