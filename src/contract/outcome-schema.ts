import {
  arrayOf, countSchema, memberOf, objectOf, stringSchema, type DataSchema, type ObjectParts,
} from './data-schema.js';
import { Cause } from './vocabulary/cause.js';
import { Coverage } from './vocabulary/coverage.js';

const unresolvedSchema = objectOf({
  description: 'A unit of work that was not done, and why',
  required: { q: stringSchema('The question left open'), reason: stringSchema('Why, for people') },
  optional: {
    code: stringSchema('Its error code'),
    context: objectOf({ required: {}, open: true, description: 'Facts about it, by name' }),
  },
});

/** What an Outcome's schema is made of: the schema of one answer and of its citation, and any fields beside. */
export interface OutcomeParts {
  /** One established answer (`a`). */
  readonly answer: DataSchema;
  /** Where it came from (`cite`). */
  readonly cite: DataSchema;
  /** Fields the command adds beside the outcome's own. */
  readonly extra?: ObjectParts['required'];
  /** Fields it adds to some answers only. */
  readonly optional?: ObjectParts['required'];
  readonly description?: string;
}

/** The schema of an Outcome (outcome.ts): what was established, what was not, the coverage and its cause. */
export function outcomeSchema({ answer, cite, extra = {}, optional = {}, description }: OutcomeParts): DataSchema {
  const established = objectOf({
    required: { q: stringSchema('The question'), a: answer, cite },
    description: 'A unit of work that was done',
  });
  return objectOf({
    ...(description !== undefined ? { description } : {}),
    required: {
      established: arrayOf(established),
      unresolved: arrayOf(unresolvedSchema),
      coverage: memberOf(Coverage),
      ...extra,
    },
    optional: {
      unresolved_total: countSchema('Units not done, when more than are named in unresolved'),
      cause: memberOf(Cause, 'Why the work stopped short, when it did'),
      ...optional,
    },
  });
}
