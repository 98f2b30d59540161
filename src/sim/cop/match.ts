// Matching a requested name against an account is the expensive step of name verification: the
// matcher that picks the best of the account's names and keeps its results for repeated asks.
import { asciiKeyEquals } from './ascii-key-equals.ts';
import { compareForms, Level, type NameForm, similarity } from './compare.ts';
import type { NameMatch } from './name-match.ts';
import { type AccountNames, type Candidate, type CandidateSet, candidateSet, parseRequestName } from './names.ts';
import { dropTitles, tokens } from './normalise.ts';
import { type MatchThresholds, matchThresholds } from './thresholds.ts';

interface Scored {
  level: Level;
  /** Tie-breaker among close results (similarity of the whole strings); 0 for the others. */
  score: number;
  name: string;
}

/** `ranked`: the score is read (another result may tie at close); alone, a result needs none. */
function scoreOne(req: NameForm, c: Candidate, t: MatchThresholds, ranked = true): Scored {
  const compared = compareForms(req, c, c.person, t);
  const level = c.closeOnly && compared === Level.Full ? Level.Close : compared;
  return { level, score: ranked && level === Level.Close ? similarity(req, c, t) : 0, name: c.display };
}

function better(a: Scored | undefined, b: Scored): Scored {
  if (!a || b.level > a.level || (b.level === a.level && b.score > a.score)) return b;
  return a;
}

/** Every way to give each requested holder its own account holder (joint names have 2–4 people). */
function assignments(n: number, m: number): number[][] {
  const out: number[][] = [];
  const walk = (acc: number[]) => {
    if (acc.length === n) return void out.push(acc);
    for (let k = 0; k < m; k++) if (!acc.includes(k)) walk([...acc, k]);
  };
  if (n <= m && m <= 6) walk([]);
  return out;
}

/** Several requested people against the holders of a joint account, in any order. */
function jointScore(reqHolders: NameForm[], holders: Candidate[], t: MatchThresholds): Scored | undefined {
  let best: Scored | undefined;
  for (const plan of assignments(reqHolders.length, holders.length)) {
    const levels = plan.map((k, i) => compareForms(reqHolders[i]!, holders[k]!, true, t));
    const level = Math.min(...levels) as Level;
    if (level === Level.None) continue;
    const close = plan.filter((_, i) => levels[i] === Level.Close).map((k) => holders[k]!.display);
    const score = plan.reduce((s, k, i) => s + similarity(reqHolders[i]!, holders[k]!, t), 0) / plan.length;
    best = better(best, { level, score, name: close.join(' & ') });
  }
  return best;
}

/** Names asked of one account whose results are kept (past it they are worked out afresh). */
const MATCHES_KEPT = 8;

/**
 * The name matcher of one simulator: its thresholds and the results it keeps. Two matchers never
 * share a result, so simulators with different thresholds in one process answer each by its own.
 */
export class NameMatcher {
  /** Checked and frozen: the kept results are never matched under other thresholds. */
  readonly thresholds: MatchThresholds;
  /**
   * Results by requested name are kept on the candidate set (`kept`, owned by one matcher at a
   * time): a set belongs to one stored attributes object, and a change of the account stores a new
   * object, so a kept result never outlives the names it read. Payers repeat the same name for the
   * same account (retries, repeat payees, conformance runs), and the matching is most of the CPU
   * name verification spends outside Node's HTTP code. Each matcher finds its own list on the set
   * (`owner`): two matchers never share a result.
   */

  /** The defaults (DEFAULT_THRESHOLDS) with `thresholds` over them; throws naming a field out of range. */
  constructor(thresholds: Partial<MatchThresholds> = {}) {
    this.thresholds = matchThresholds(thresholds);
  }

  /**
   * Compares Data.Name with every candidate name of the account and keeps the best result. A close
   * match names what was close: the holder name, or for a joint account only the close holder(s).
   */
  matchName(requestName: string, account: AccountNames): NameMatch {
    const set = candidateSet(account);
    let kept = set.kept;
    while (kept && kept.owner !== this) kept = kept.next;
    const known = kept?.results.get(requestName);
    if (known) return known;
    // One result object is handed to every request asking this name: frozen, so none can change it.
    const result = matchCandidates(requestName, set, this.thresholds);
    if (!kept) {
      // Ahead of at most one other matcher's: a matcher gone (a test's, a bench pass's) is let go.
      const other = set.kept && { ...set.kept, next: undefined };
      set.kept = { owner: this, results: new Map(), next: other };
      set.kept.results.set(requestName, result);
    } else {
      if (kept.results.size >= MATCHES_KEPT) kept.results.clear();
      kept.results.set(requestName, result);
    }
    return result;
  }
}

/** The results that name nothing, one object each (every result is frozen: shared safely). */
const FULL_MATCH: NameMatch = Object.freeze({ level: 'full' });
const NO_MATCH: NameMatch = Object.freeze({ level: 'none' });

function matchCandidates(requestName: string, set: CandidateSet, t: MatchThresholds): NameMatch {
  const { candidates, fullKeys, holders } = set;
  // The same words as a candidate (spacing aside) is a full match: no parsing or scoring needed.
  // Plain ASCII names are compared letter by letter, with no word list made (cold, each costs).
  let unread = false;
  for (const fullKey of fullKeys) {
    const same = asciiKeyEquals(requestName, fullKey);
    if (same) return FULL_MATCH;
    if (same === undefined) unread = true;
  }
  const all = tokens(requestName); // read, never changed, by both below
  const key = dropTitles(all).join('');
  if (unread && fullKeys.includes(key)) return FULL_MATCH;
  const req = parseRequestName(requestName, all, key);
  let best: Scored | undefined;

  const several = req.holders.length >= 2;
  // One candidate, no holders, one person asked (most accounts): no other result can tie with it,
  // so the tie-breaker's similarity is not worked out (a new name is matched with cold caches,
  // where every step costs several times what it does in a loop: bench/RESULTS.md).
  const ranked = several || holders.length > 0 || candidates.length > 1;
  for (const c of candidates) {
    // Several requested people against one person: only the separate comparisons below count.
    if (several && c.person) continue;
    best = better(best, scoreOne(req.whole, c, t, ranked));
  }
  if (!several && holders.length > 0 && best && best.level === Level.Close) {
    // One requested person close to several holders ("J Smith"): each of them is named.
    const close = holders.map((h) => scoreOne(req.whole, h, t)).filter((s) => s.level === Level.Close);
    if (close.length > 1 && close.some((s) => s.name === best!.name))
      best = { ...best, name: close.map((s) => s.name).join(' & ') };
  }
  if (several) {
    const joint = holders.length >= 2 ? jointScore(req.holders, holders, t) : undefined;
    if (joint) best = better(best, joint);
    // Some of the requested people hold the account, not all of them: at best close, naming those.
    const people = holders.length >= 2 ? holders : candidates.filter((c) => c.person && !c.holder).slice(0, 1);
    const partial = people.filter((p) => req.holders.some((h) => compareForms(h, p, true, t) !== Level.None));
    if (!joint && partial.length > 0) {
      const score = Math.max(...partial.map((p) => similarity(req.whole, p, t)));
      best = better(best, { level: Level.Close, score, name: partial.map((p) => p.display).join(' & ') });
    }
  }
  if (!best || best.level === Level.None) return NO_MATCH;
  if (best.level === Level.Full) return FULL_MATCH;
  return closeMatch(set, best.name);
}

/**
 * The frozen close result naming `name`, made once per account and name: an account's close
 * results name one of a few of its names, and a new object frozen per request is a runtime call
 * and an allocation a cold request pays for.
 */
function closeMatch(set: CandidateSet, name: string): NameMatch {
  for (const made of set.closeMatches) if (made.name === name) return made;
  const made = Object.freeze({ level: 'close' as const, name });
  set.closeMatches.push(made);
  return made;
}
