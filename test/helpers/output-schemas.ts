import { execFileSync } from 'node:child_process';
import AjvModule from 'ajv';
import type { Envelope } from '../../src/contract/envelope.js';
import { ExitCode } from '../../src/contract/exit-code.js';
import { INCOMPLETE_SCHEMA } from '../../src/contract/incomplete-schema.js';

// ajv is CommonJS with a `default` export.
type AjvClass = typeof AjvModule.default;
const Ajv = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as AjvClass;

// Strict: a schema with a keyword ajv does not know fails here rather than passing anything (a required field
// named in an if/then without its property beside it is valid draft-07: not refused).
const ajv = new Ajv({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });

type Validate = ReturnType<typeof ajv.compile>;
type Commands = Readonly<Record<string, { output_schema?: Record<string, unknown> }>>;

const manifests = new Map<string, Commands>();
const validators = new Map<string, Validate | undefined>();

/** The commands of a program's manifest, asked of the program once per test process. */
function commandsOf(program: string, env: Readonly<Record<string, string>>): Commands {
  let commands = manifests.get(program);
  if (!commands) {
    const out = execFileSync(process.execPath, [program, 'manifest'], { env, encoding: 'utf8' });
    commands = (JSON.parse(out) as { data: { commands: Commands } }).data.commands;
    manifests.set(program, commands);
  }
  return commands;
}

/** Compiles an output schema as the checks below do; throws when it is not a schema ajv takes in strict mode. */
export const compileOutputSchema = (schema: Record<string, unknown>): Validate => ajv.compile(schema);

function validatorOf(program: string, id: string, env: Readonly<Record<string, string>>): Validate | undefined {
  const key = `${program}\n${id}`;
  if (!validators.has(key)) {
    const schema = commandsOf(program, env)[id]?.output_schema;
    validators.set(key, schema ? compileOutputSchema(schema) : undefined);
  }
  return validators.get(key);
}

/** Exit 0 answers, and exit 3's partial answers (the same shape), are what an output schema describes. */
const DESCRIBED: readonly number[] = [ExitCode.SUCCESS, ExitCode.PARTIAL_FAILURE];
/** Every INCOMPLETE (14) answer, whatever its command, follows the contract's one schema. */
const incomplete = ajv.compile(INCOMPLETE_SCHEMA);

/**
 * Throws unless the answer's data follows the output_schema its command (meta.command) declares in the
 * manifest of the program that ran. A command the program does not have (follow relays another program's
 * answer) or one without a schema (a test program's own) is not checked; every stint command has one.
 */
export function assertOutputSchema(
  envelope: Envelope<unknown>,
  program: string,
  env: Readonly<Record<string, string>>,
): void {
  const { data, meta } = envelope;
  if (data === null || !DESCRIBED.includes(meta.exit_code) || meta['help'] === true) return;
  if (typeof meta.command !== 'string') return;
  const id = meta.command.split(' ').join('.');
  const validate = validatorOf(program, id, env);
  if (!validate || validate(data)) return;
  const errors = ajv.errorsText(validate.errors, { separator: '\n  ' });
  throw new Error(`${meta.command}'s data does not follow its output_schema:\n  ${errors}\n`
    + JSON.stringify(data).slice(0, 2000));
}

/** Throws unless an INCOMPLETE (14) answer's data follows the contract's INCOMPLETE_SCHEMA, whoever answered it. */
export function assertIncompleteSchema(envelope: Envelope<unknown>): void {
  if (envelope.meta.exit_code !== ExitCode.INCOMPLETE || incomplete(envelope.data)) return;
  const errors = ajv.errorsText(incomplete.errors, { separator: '\n  ' });
  throw new Error(`an INCOMPLETE answer's data does not follow INCOMPLETE_SCHEMA:\n  ${errors}\n`
    + JSON.stringify(envelope.data).slice(0, 2000));
}
