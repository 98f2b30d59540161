// The name-matching rules themselves: how one requested name compares with one of the account's
// names, for a person or an organisation, typos and close forenames included.
import { isNickname } from './nicknames.ts';
import { splitSuffix } from './normalise.ts';
import { editDistance, jaroWinkler } from './similarity.ts';
import { allowedEdits, type MatchThresholds } from './thresholds.ts';

/** How well two names agree: none < close < full. */
export const Level = { None: 0, Close: 1, Full: 2 } as const;
export type Level = (typeof Level)[keyof typeof Level];

/** A name as normalised tokens; for a person, tokens from `surnameAt` on are the surname. */
export interface NameForm {
  words: string[];
  surnameAt: number;
  /** Derived once by `nameForm`: a form is compared with every candidate of the account. */
  key: string;
  /** The words joined by spaces: made on first need (only the close tie-breaker reads it). */
  text: string | undefined;
  forenames: string[];
  surname: string[];
  surnameKey: string;
  /** The words sorted, joined by spaces: made on first need (only a reordered name reads it). */
  sortedKey: string | undefined;
}

/**
 * A name form with what the comparisons read derived once: spacing-free key, forenames, surname.
 * `key`: words.join(''), when the caller has it. A name new to the matcher is matched with cold
 * caches, where each join costs several times what it does in a loop (bench/RESULTS.md): none is
 * made twice, nor for a one-word surname.
 */
export function nameForm(words: string[], surnameAt: number, key = words.join('')): NameForm {
  const surname = words.slice(surnameAt);
  return {
    words,
    surnameAt,
    key,
    text: undefined,
    forenames: words.slice(0, surnameAt),
    surname,
    surnameKey: surname.length === 1 ? surname[0]! : surname.join(''),
    sortedKey: undefined,
  };
}

// Every comparison takes the matcher's thresholds `t` (thresholds.ts): each simulator has its own.

/** A typo: similar enough by Jaro-Winkler and within the edits allowed for the length. */
export function isTypo(a: string, b: string, t: MatchThresholds): boolean {
  const edits = allowedEdits(Math.min(a.length, b.length), t);
  if (edits === 0) return false;
  // The edit distance is at least the difference in length: most unrelated words need no scoring.
  if (Math.abs(a.length - b.length) > edits) return false;
  return jaroWinkler(a, b, t) >= t.typoMinJaroWinkler && editDistance(a, b) <= edits;
}

/** Forename against forename: equal, or one of the close rules, or unrelated. */
export function compareForename(a: string, b: string, t: MatchThresholds): Level {
  if (a === b) return Level.Full;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length === 1) return long.startsWith(short) ? Level.Close : Level.None; // initial
  if (isNickname(a, b)) return Level.Close;
  if (short.length >= t.shortenedMinLength && long.startsWith(short)) return Level.Close; // Sam / Samantha
  return isTypo(a, b, t) ? Level.Close : Level.None;
}

/**
 * Surname against surname: equal (spacing aside), a typo, one part of a double-barrelled surname
 * (Jones for Smith-Jones), or a different surname.
 */
function compareSurname(req: NameForm, acc: NameForm, t: MatchThresholds): Level {
  const a = req.surname;
  const b = acc.surname;
  const x = req.surnameKey;
  const y = acc.surnameKey;
  if (x === y) return Level.Full;
  if (isTypo(x, y, t)) return Level.Close;
  if ((a.length === 1 && b.length > 1 && b.includes(x)) || (b.length === 1 && a.length > 1 && a.includes(y)))
    return Level.Close;
  return Level.None;
}

/**
 * Forenames in order. Each requested forename must line up with a later account forename; account
 * forenames left over are dropped middle names (close); requested forenames left over are extra
 * middle names the account lacks (close). Both at once means different middle names: no match.
 */
function compareForenames(req: string[], acc: string[], t: MatchThresholds): Level {
  if (req.length === 0 || acc.length === 0) return Level.None;
  let level: Level = Level.Full;
  let j = 0;
  let unmatchedReq = 0;
  let skippedAcc = 0;
  let first = true;
  for (const name of req) {
    let found = -1;
    for (let k = j; k < acc.length; k++) {
      const l = compareForename(name, acc[k]!, t);
      if (l !== Level.None) {
        found = k;
        if (l === Level.Close) level = Level.Close;
        break;
      }
    }
    if (found === -1) {
      if (first) return Level.None; // the first given forename must be one of the holder's
      unmatchedReq++;
      continue;
    }
    skippedAcc += found - j;
    j = found + 1;
    first = false;
  }
  skippedAcc += acc.length - j;
  if (unmatchedReq > 0 && skippedAcc > 0) return Level.None;
  if (unmatchedReq > 0 || skippedAcc > 0) return Level.Close;
  return level;
}

/** The form's words in sorted order as one string (words hold no spaces), kept on the form. */
function sortedKey(form: NameForm): string {
  form.sortedKey ??= [...form.words].sort().join(' ');
  return form.sortedKey;
}

/** Person names: surname must agree; then the forenames decide. */
function comparePerson(req: NameForm, acc: NameForm, t: MatchThresholds): Level {
  const surname = compareSurname(req, acc, t);
  if (surname === Level.None) return Level.None;
  const forenames = compareForenames(req.forenames, acc.forenames, t);
  return Math.min(surname, forenames) as Level;
}

/** Organisation names: suffix differences and token typos are close, anything else none. */
function compareOrganisation(req: string[], acc: string[], t: MatchThresholds): Level {
  const a = splitSuffix(req);
  const b = splitSuffix(acc);
  if (a.body.join('') === b.body.join('')) return Level.Close; // suffix omitted or different (equal suffix was full)
  if (a.body.length !== b.body.length) return Level.None;
  let typos = 0;
  for (let i = 0; i < a.body.length; i++) {
    const x = a.body[i]!;
    const y = b.body[i]!;
    if (x === y) continue;
    if (!isTypo(x, y, t)) return Level.None;
    typos++;
  }
  return typos > 0 ? Level.Close : Level.Full;
}

/** Compares a requested name with one candidate name of the account. */
export function compareForms(req: NameForm, acc: NameForm, person: boolean, t: MatchThresholds): Level {
  if (req.words.length === 0 || acc.words.length === 0) return Level.None;
  if (req.key === acc.key) return Level.Full; // the same words, spacing aside
  if (person) {
    const n = req.words.length;
    // Smith John. The same words reordered have as many letters: most names are told apart by that.
    if (n > 1 && n === acc.words.length && req.key.length === acc.key.length && sortedKey(req) === sortedKey(acc))
      return Level.Close;
    return comparePerson(req, acc, t);
  }
  return compareOrganisation(req.words, acc.words, t);
}

/** A tie-breaker among close candidates: similarity of the whole strings. */
export function similarity(req: NameForm, acc: NameForm, t: MatchThresholds): number {
  req.text ??= req.words.join(' ');
  acc.text ??= acc.words.join(' ');
  return jaroWinkler(req.text, acc.text, t);
}
