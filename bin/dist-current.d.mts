/** True when dist/cli/main.js is at least as new as every source of src/ (`root`: the package folder). */
export function distIsCurrent(root: string): boolean;
