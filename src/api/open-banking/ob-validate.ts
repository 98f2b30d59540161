// Schema validation for name verification, whose errors are Open Banking's (one item per field, with
// UK.OBIE codes and a Path) rather than Form3's.
import type { ErrorObject } from 'ajv';
import { schemaValidator } from '../schemas/index.ts';
import { ObError, type ObErrorItem } from './ob-errors.ts';

/** `/Data/Name` → `Data.Name`, the Path of an Open Banking error. */
function pathOf(instancePath: string): string {
  return instancePath.split('/').slice(1).join('.');
}

function describe(e: ErrorObject): ObErrorItem {
  const p = e.params as Record<string, unknown>;
  const path = pathOf(e.instancePath);
  const field = path || 'request body';
  if (e.keyword === 'required') {
    const missing = path ? `${path}.${String(p.missingProperty)}` : String(p.missingProperty);
    return { ErrorCode: 'UK.OBIE.Field.Missing', Message: `${missing} is missing`, Path: missing };
  }
  const invalid = (message: string): ObErrorItem => ({
    ErrorCode: 'UK.OBIE.Field.Invalid',
    Message: message,
    ...(path ? { Path: path } : {}),
  });
  switch (e.keyword) {
    case 'type':
      return invalid(`${field} must be ${p.type === 'object' ? 'an object' : `a ${String(p.type)}`}`);
    case 'enum':
      return invalid(`${field} must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`);
    case 'maxLength':
      return invalid(`${field} must be at most ${String(p.limit)} characters long`);
    case 'minLength':
      return invalid(`${field} must not be empty`);
    case 'pattern':
      return invalid(
        path === 'Data.Identification'
          ? `${field} must be 14 digits: the sort code then the account number`
          : `${field} must not be empty or blank`,
      );
    default:
      return invalid(`${field} ${e.message ?? 'is invalid'}`);
  }
}

/** Validates against a schema of src/api/schemas; every violated field is one Open Banking error (400). */
export function validateOb<T>(schemaId: string, value: unknown): T {
  const validate = schemaValidator(schemaId);
  if (validate(value)) return value as T;
  const seen = new Set<string>();
  const errors: ObErrorItem[] = [];
  for (const e of validate.errors ?? []) {
    const item = describe(e);
    const key = item.Path ?? '';
    if (seen.has(key)) continue; // one error per field: the first rule it broke (the type before the enum)
    seen.add(key);
    errors.push(item);
  }
  throw new ObError(400, errors.map((e) => e.Message).join('; '), errors);
}
