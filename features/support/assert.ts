// Assertions for steps whose message is the whole story. node:assert with a message still makes
// cucumber print its own "-actual +expected" diff instead of the message; these throw a plain Error
// whose message says expected vs actual with the exchange, so the report shows that.
import { isDeepStrictEqual } from 'node:util';

export function fail(message: string): never {
  throw new Error(message);
}

export function ok(value: unknown, message: string): asserts value {
  if (!value) fail(message);
}

export function equal(actual: unknown, expected: unknown, message: string): void {
  if (!Object.is(actual, expected)) fail(message);
}

export function deepEqual(actual: unknown, expected: unknown, message: string): void {
  if (!isDeepStrictEqual(actual, expected)) fail(message);
}
