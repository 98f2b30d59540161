/** The data file cannot be opened, locked, read or written; the message names the file. */
export class StoreError extends Error {}
