import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { REPO_ROOT } from './paths.js';

// ajv and ajv-formats are CommonJS with a `default` export.
type AjvClass = typeof AjvModule.default;
const Ajv = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as AjvClass;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: InstanceType<AjvClass>) => void;

const load = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', name), 'utf8')) as Record<string, unknown>;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
for (const name of ['exit-code.json', 'exit-code-entry.json', 'response-envelope.json', 'manifest-response.json']) ajv.addSchema(load(name), name);

function check(schemaId: string, value: unknown): void {
  const validate = ajv.getSchema(schemaId);
  if (!validate) throw new Error(`schema ${schemaId} not loaded`);
  if (!validate(value)) {
    throw new Error(`${schemaId} rejects the document: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}\n${JSON.stringify(value).slice(0, 2000)}`);
  }
}

/** Throws unless the value is a valid response envelope (schemas/response-envelope.json). */
export const assertEnvelope = (value: unknown): void => check('response-envelope.json', value);
/** Throws unless the value is a valid ManifestResponse. */
export const assertManifest = (value: unknown): void => check('manifest-response.json', value);
