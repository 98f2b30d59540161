// The one schema check of route tests and the conformance features.

import { describeErrors } from '../api/body/validate.ts';
import { schemaValidator } from '../api/schemas/index.ts';

/**
 * Throws listing every violation with its JSON path when `value` does not match the named schema
 * of src/api/schemas. The one schema check of route tests and the conformance features.
 */
export function assertMatchesSchema(name: string, value: unknown): void {
  const validate = schemaValidator(name);
  if (validate(value)) return;
  const lines = (validate.errors ?? []).map(
    (e) => `  ${e.instancePath || '/'}: ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
  );
  throw new Error(
    `response does not match schema "${name}":\n${lines.join('\n')}\n(${describeErrors(validate.errors).join('; ')})`,
  );
}
