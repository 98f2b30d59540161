// The schema check the steps use is the one route tests use.
export { assertMatchesSchema } from '../../src/harness/assert-schema.ts';
