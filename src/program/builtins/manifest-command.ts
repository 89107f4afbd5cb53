import { ExitCode } from '../../contract/exit-code.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import type { CommandSpec } from '../../runtime/authoring/command-spec.js';
import { arrayOf, mapOf, objectOf, stringSchema, type DataSchema } from '../../contract/data-schema.js';

const entries = (description: string): DataSchema => mapOf(objectOf({ required: {}, open: true }), description);

/** The manifest's own fields; schemas/manifest-response.json in the package describes each in full. */
const MANIFEST_SCHEMA = objectOf({
  description: 'The ManifestResponse of schemas/manifest-response.json (data is null when --etag is unchanged)',
  required: {
    schema_version: stringSchema(),
    framework_version: stringSchema('The program\'s version'),
    etag: stringSchema('Give it as --etag to learn whether the manifest changed'),
    commands: entries('By command id (job.wait for job wait): flags, positionals, exit codes, output_schema'),
    flags: entries('The global flags'),
    exit_codes: entries('The exit codes every command shares'),
    env_vars: arrayOf(objectOf({ required: {}, open: true }), 'The environment variables read'),
  },
});

/** `<program> manifest`: the whole command tree in one response (schemas/manifest-response.json). */
export function manifestCommand(manifest: () => Record<string, unknown>): CommandSpec {
  return {
    name: 'manifest',
    description: 'Describe every command, its flags, arguments and exit codes, in one JSON response',
    dangerLevel: DangerLevel.Safe,
    outputSchema: MANIFEST_SCHEMA,
    flags: {
      etag: {
        type: 'string',
        description: 'The etag of a manifest you hold;'
          + ' an unchanged manifest answers data: null, meta.not_modified: true',
      },
    },
    exitCodes: {
      [ExitCode.SUCCESS]: {
        description: 'The manifest was written (or is unchanged)', retryable: false, sideEffects: SideEffects.Complete,
      },
    },
    async run(input) {
      const data = manifest();
      if (input.flags['etag'] !== undefined && input.flags['etag'] === data['etag']) {
        return { exitCode: ExitCode.SUCCESS, data: null, meta: { not_modified: true } };
      }
      return { exitCode: ExitCode.SUCCESS, data };
    },
    text(data) {
      const commands = (data as { commands: Record<string, { description: string; danger_level: string }> }).commands;
      const line = ([id, c]: [string, { description: string; danger_level: string }]) =>
        `${id.padEnd(16)} ${c.danger_level.padEnd(11)} ${c.description}`;
      return Object.entries(commands).map(line).join('\n') + '\n';
    },
  };
}
