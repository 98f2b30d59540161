// Names as Confirmation of Payee compares them: a requested name split into its holders, and every
// name an account may be known by (joint holders, trading names, alternative names).
import { type NameForm, nameForm } from './compare.ts';
import type { NameMatch } from './name-match.ts';
import { dropTitles, TITLES, tokens } from './normalise.ts';

/** A requested name: as a whole, and split into holders when it names several people. */
export interface RequestedName {
  whole: NameForm;
  holders: NameForm[];
}

/** What of an account the matcher reads. */
export interface AccountNames {
  name?: string[] | undefined;
  alternative_names?: string[] | undefined;
  account_classification: 'Personal' | 'Business';
  joint_account: boolean;
}

/** One name the request may be compared with. */
export interface Candidate extends NameForm {
  /** What a close match returns as Name. */
  display: string;
  /** Compared by the person rules (surname, forenames) rather than the organisation rules. */
  person: boolean;
  /** One holder of a joint account. */
  holder: boolean;
  /** Best result this candidate can give (a charity name without its number is at most close). */
  closeOnly: boolean;
}

const TRADING_AS = /\s*(?:\bt\s*\/\s*a\b|\btrading\s+as\b)\s*/i;
const CHARITY_NUMBER =
  /[\s,;([-]*\b(?:registered\s+charity|reg(?:istered)?\.?\s*charity|charity|r\s*\/\s*c|rcn|rc)\b\.?\s*(?:no\b\.?|number|num\b\.?|#)?\s*[:.]?\s*\d{4,8}\s*[)\]]?/gi;

function personForm(words: string[]): NameForm {
  return nameForm(words, Math.max(0, words.length - 1));
}

/** Whether a UTF-16 code unit is whitespace as JavaScript's `\s` and `trim()` read it. */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** The last whitespace-separated word of `raw` ('' when it has none): `raw.trim().split(/\s+/).pop()` without the array. */
export function lastWord(raw: string): string {
  let end = raw.length;
  while (end > 0 && isSpace(raw.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && !isSpace(raw.charCodeAt(start - 1))) start--;
  return raw.slice(start, end);
}

/** `/^[A-Za-z]*$/.test(word)` without a regular expression run (a cold one costs more than the loop). */
function isLetters(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i) | 0x20;
    if (code < 97 || code > 122) return false;
  }
  return true;
}

/** Free text as a person's name: the surname is the last word as written, so Smith-Jones stays one surname. */
function freeForm(raw: string, all: string[] = tokens(raw), key?: string): NameForm {
  const words = dropTitles(all);
  const last = lastWord(raw);
  const surnameLength = isLetters(last) ? 1 : Math.max(1, tokens(last).length);
  return nameForm(words, Math.max(0, words.length - surnameLength), key);
}

/** `Salutation, Forenames, Surname` when the first part is empty or a title; `,,Full Name` is free text. */
function structured(name: string): NameForm | undefined {
  if (!name.includes(',')) return undefined; // most names: no array made to learn it
  const parts = name.split(',');
  if (parts.length !== 3) return undefined;
  const salutation = tokens(parts[0]!);
  if (!salutation.every((w) => TITLES.has(w))) return undefined;
  const forenames = dropTitles(tokens(parts[1]!));
  const surname = tokens(parts[2]!);
  if (forenames.length === 0) return freeForm(parts[2]!);
  return nameForm([...forenames, ...surname], forenames.length);
}

/**
 * Splits words on "and" into people; a lone forename takes the surname of the person after it
 * ("John and Jane Smith" → john smith, jane smith); a part made only of titles is dropped.
 */
export function splitHolders(words: string[]): string[][] {
  const parts: string[][] = [[]];
  for (const w of words) {
    if (w === 'and') parts.push([]);
    else parts[parts.length - 1]!.push(w);
  }
  const people = parts.filter((p) => p.length > 0 && !p.every((w) => TITLES.has(w))).map(dropTitles);
  for (let i = people.length - 2; i >= 0; i--) {
    const next = people[i + 1]!;
    if (people[i]!.length === 1 && next.length > 1) people[i] = [people[i]![0]!, next[next.length - 1]!];
  }
  return people;
}

/**
 * Parses Data.Name of a request: structured or free text, and the people it names. `all`:
 * tokens(name), and `key`: dropTitles(all).join(''), when known.
 */
export function parseRequestName(name: string, all?: string[], key?: string): RequestedName {
  const s = structured(name);
  if (s) return { whole: s, holders: [s] };
  all ??= tokens(name);
  const whole = freeForm(name, all, key);
  const people = all.includes('and') ? splitHolders(all) : [];
  return { whole, holders: people.length >= 2 ? people.map(personForm) : [whole] };
}

/** Holder segments of a joint name as held, for what a close match returns. */
function holderDisplays(raw: string, people: string[][]): string[] {
  const segments = raw
    .split(/\s*&\s*|\s+and\s+/i)
    .map((s) => s.trim())
    .filter(Boolean);
  if (segments.length !== people.length) return people.map((p) => p.join(' '));
  return segments.map((seg, i) => {
    if (seg.split(/\s+/).length > 1 || i === segments.length - 1) return seg;
    const last = segments[segments.length - 1]!.split(/\s+/);
    return `${seg} ${last[last.length - 1]}`;
  });
}

/**
 * Every name of the account the request is compared with: the holder name (entry 1, or entries
 * 1 + 2 when a person's first and last names are split), each holder of a joint account, either
 * side of a T/A name, the name without a charity number, and each alternative name.
 */
export function accountCandidates(account: AccountNames): Candidate[] {
  return candidateSet(account).candidates;
}

/** The candidates of an account, what of them the matcher reads first, worked out once per account. */
export interface CandidateSet {
  candidates: Candidate[];
  /**
   * Spacing-free keys of the candidates that can match fully, each once (exact names skip scoring).
   * A list, not a Set: it holds 1–4 keys, compared by index with the requested name's letters.
   */
  fullKeys: string[];
  /** The holders of a joint account. */
  holders: Candidate[];
  /**
   * The results matchers keep for this account, each list with the matcher it belongs to (match.ts):
   * held here rather than in a map of their own, so that a new name costs one look-up of the
   * account's names, not two. One matcher a simulator: a chain of one (at most two are kept).
   */
  kept: KeptResults | undefined;
  /** The close results made for this account, one frozen object per name they give (match.ts). */
  closeMatches: NameMatch[];
}

/** One matcher's kept results for an account, and the next matcher's. */
export interface KeptResults {
  owner: object;
  results: Map<string, NameMatch>;
  next: KeptResults | undefined;
}

export function candidateSet(account: AccountNames): CandidateSet {
  let set = CANDIDATES.get(account);
  if (!set) {
    const candidates = listCandidates(account);
    const fullKeys = [...new Set(candidates.filter((c) => !c.closeOnly && c.words.length > 0).map((c) => c.key))];
    set = { candidates, fullKeys, holders: candidates.filter((c) => c.holder), kept: undefined, closeMatches: [] };
    CANDIDATES.set(account, set);
  }
  return set;
}

/** Per account attributes object: a change of an account stores a new object, so no stale entry is read. */
const CANDIDATES = new WeakMap<AccountNames, CandidateSet>();

function listCandidates(account: AccountNames): Candidate[] {
  const names = account.name ?? [];
  if (names.length === 0) return [];
  const personal = account.account_classification === 'Personal';
  const split = personal && !account.joint_account && names.length >= 2;
  const display = split ? `${names[0]} ${names[1]}` : names[0]!;
  const primaryWords = dropTitles(tokens(names[0]!));
  const tradingSides = names[0]!.split(TRADING_AS).filter((s) => s.trim() !== '');
  const trading = tradingSides.length === 2;
  const out: Candidate[] = [];
  const add = (form: NameForm, person: boolean, extra: Partial<Candidate> = {}) =>
    out.push({ ...form, display, person, holder: false, closeOnly: false, ...extra });

  if (split) {
    const surname = tokens(names[1]!);
    add(nameForm([...primaryWords, ...surname], primaryWords.length), true);
  } else {
    add(freeForm(names[0]!), personal && !account.joint_account && !trading);
  }
  if (account.joint_account) {
    const people = splitHolders(tokens(names[0]!));
    if (people.length >= 2) {
      const displays = holderDisplays(names[0]!, people);
      for (const [i, p] of people.entries()) add(personForm(p), true, { holder: true, display: displays[i]! });
    }
  }
  if (trading) {
    add(freeForm(tradingSides[0]!), true);
    add(personForm(tokens(tradingSides[1]!)), false);
  }
  const withoutNumber = names[0]!.replace(CHARITY_NUMBER, ' ').trim();
  if (withoutNumber !== names[0]!.trim() && withoutNumber !== '') {
    add(personForm(tokens(withoutNumber)), false, { closeOnly: true });
  }
  for (const alt of account.alternative_names ?? []) add(freeForm(alt), personal);
  return out;
}
