// tsx's ESM hooks for cucumber's `loader` option (cucumber.mjs). Cucumber registers a loader
// without data, which tsx takes for the deprecated --loader flag and refuses; these are the same
// hooks, given the (empty) options tsx's own register() would pass.
import { load, resolve, initialize as tsxInitialize } from 'tsx/esm';

export { load, resolve };

export function initialize(data) {
  return tsxInitialize(data ?? {});
}
