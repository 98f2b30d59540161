// The schemas' string formats kept in one object, so the validators compiled at run time and the
// precompiled ones check date-times alike.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { plainUtcDateTime } from './fast-date-time.ts';

const fullDateTime = fullFormats['date-time'] as { validate: (s: string) => boolean; compare?: unknown };

/**
 * The string formats the schemas use: ajv-formats' full set, its date-time with a quick yes for
 * the common shape (fast-date-time.ts). One object for the validators compiled at run time and
 * those compiled when the package is built (precompile.ts), which import it by name.
 */
export const FORMATS = {
  ...fullFormats,
  'date-time': { ...fullDateTime, validate: (s: string) => plainUtcDateTime(s) || fullDateTime.validate(s) },
};
