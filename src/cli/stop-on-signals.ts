// `start` and a node stop the same way on Ctrl-C or SIGTERM: once, saying so, exiting 0 when the
// close went well and 1 (with why) when it did not.

/** Closes with `close` on the first SIGINT or SIGTERM; `doing` is what the stop line says it does. */
export function stopOnSignals(close: () => Promise<unknown>, doing = 'stopping'): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`scheme-sim: ${signal}, ${doing}`);
    close().then(
      () => process.exit(0),
      (err: Error) => {
        console.error(`scheme-sim: error while stopping: ${err.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
