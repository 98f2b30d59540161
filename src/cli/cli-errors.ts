/** A failure to report on stderr with exit code 1 (no stack: the message says it all). */
export class CliError extends Error {}

/** A mistake in the command line (exit 2), as against a refusal by the simulator (exit 1). */
export class UsageError extends CliError {}
