import { membersOf } from './vocabulary/closed-set.js';

/**
 * A JSON Schema (draft-07) of a command's `data` on success, as the manifest gives it (`output_schema`). Built
 * with the functions below, so that every object is closed (no field the schema does not name) unless it says
 * it is open, and every closed vocabulary is listed from its one declaration.
 */
export type DataSchema = Readonly<Record<string, unknown>>;

/** The draft the schemas are written in, as the manifest's `output_schema.$schema` names it. */
export const JSON_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

type Fields = Readonly<Record<string, DataSchema>>;

const withDescription = (schema: DataSchema, description: string | undefined): DataSchema =>
  (description === undefined ? schema : { ...schema, description });

/** A string. */
export const stringSchema = (description?: string): DataSchema => withDescription({ type: 'string' }, description);
/** true or false. */
export const booleanSchema = (description?: string): DataSchema => withDescription({ type: 'boolean' }, description);
/** A number (a double). */
export const numberSchema = (description?: string): DataSchema => withDescription({ type: 'number' }, description);
/** A count, size or duration: a whole number, never negative. */
export const countSchema = (description?: string): DataSchema =>
  withDescription({ type: 'integer', minimum: 0 }, description);

/** One of a closed vocabulary's values. */
export function memberOf<const V extends Record<string, string>>(vocabulary: V, description?: string): DataSchema {
  return withDescription({ type: 'string', enum: [...membersOf(vocabulary)] }, description);
}

/** Exactly this value. */
export const constSchema = (value: string | number | boolean, description?: string): DataSchema =>
  withDescription({ const: value }, description);

/** The schema, or null. */
export const nullable = (schema: DataSchema): DataSchema => ({ anyOf: [schema, { type: 'null' }] });

/** Any one of these schemas. */
export const anyOf = (schemas: readonly DataSchema[], description?: string): DataSchema =>
  withDescription({ anyOf: [...schemas] }, description);

/** An array whose every item follows one schema. */
export const arrayOf = (items: DataSchema, description?: string): DataSchema =>
  withDescription({ type: 'array', items }, description);

/** A fixed-length array, one schema per position (a `[first, end)` range). */
export const tupleOf = (items: readonly DataSchema[], description?: string): DataSchema =>
  withDescription({ type: 'array', items: [...items], minItems: items.length, maxItems: items.length }, description);

/** An object keyed by names the data chooses (a file name, a state), each value of one schema. */
export const mapOf = (values: DataSchema, description?: string): DataSchema =>
  withDescription({ type: 'object', additionalProperties: values }, description);

/** An object's fields, by name: those always there and those sometimes there. */
export interface ObjectParts {
  readonly required: Fields;
  readonly optional?: Fields;
  readonly description?: string;
  /** Fields the schema does not name are allowed: a value the author or a relayed command shapes. */
  readonly open?: boolean;
}

/** An object with these fields, closed unless `open`. */
export function objectOf({ required, optional = {}, description, open = false }: ObjectParts): DataSchema {
  const schema = {
    type: 'object',
    required: Object.keys(required),
    properties: { ...optional, ...required },
    additionalProperties: open,
  };
  return withDescription(schema, description);
}

/** Only a description: data whose shape another schema gives (a relayed answer names its command). */
export const describedOnly = (description: string): DataSchema => ({ description });
