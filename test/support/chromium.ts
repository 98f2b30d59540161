// The browser tests (dashboard, /docs, the cucumber report) need a real Chromium: where to find the
// system's, and one launched headless.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs the `chromium` package), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found)
    throw new Error(
      'no Chromium found: install the Debian package `chromium` (bash .ci/run does) or set CHROMIUM_PATH',
    );
  return found;
}

/** A headless Chromium for page tests; close it when done. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in a container has no user namespace sandbox to give Chromium.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}
