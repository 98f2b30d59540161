// The schema check the steps use is the one route tests use.
export { assertMatchesSchema } from '../../test/support/testing.ts';
