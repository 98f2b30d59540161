// The string measures behind "close enough" (Jaro-Winkler, edit distance), written to allocate
// nothing since they run on every name-verification request.
import type { MatchThresholds } from './thresholds.ts';

// Scratch space reused by every call (the matcher runs on every name-verification request; fresh
// arrays per comparison were a visible share of its allocations). Single-threaded, never re-entered.
let flagsA = new Uint8Array(64);
let flagsB = new Uint8Array(64);
let rowPrev2 = new Int32Array(64);
let rowPrev = new Int32Array(64);
let rowCur = new Int32Array(64);

/** Jaro similarity of two strings (0..1). */
export function jaro(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  if (flagsA.length < la) flagsA = new Uint8Array(la * 2);
  if (flagsB.length < lb) flagsB = new Uint8Array(lb * 2);
  const aMatched = flagsA.fill(0, 0, la);
  const bMatched = flagsB.fill(0, 0, lb);
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(lb - 1, i + window);
    const ch = a.charCodeAt(i);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] === 1 || ch !== b.charCodeAt(j)) continue;
      aMatched[i] = 1;
      bMatched[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (aMatched[i] === 0) continue;
    while (bMatched[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const t = transpositions / 2;
  return (matches / la + matches / lb + (matches - t) / matches) / 3;
}

/** Jaro-Winkler similarity (0..1): Jaro boosted by a shared prefix (the usual scale 0.1, up to 4 letters). */
export function jaroWinkler(a: string, b: string, thresholds: MatchThresholds): number {
  const j = jaro(a, b);
  let prefix = 0;
  const max = Math.min(thresholds.jaroWinklerMaxPrefix, a.length, b.length);
  while (prefix < max && a[prefix] === b[prefix]) prefix++;
  return j + prefix * thresholds.jaroWinklerPrefixScale * (1 - j);
}

/** Damerau-Levenshtein distance (optimal string alignment: insert, delete, substitute, swap neighbours). */
export function editDistance(a: string, b: string): number {
  const la = a.length;
  const lb = b.length;
  if (la === 0) return lb;
  if (lb === 0) return la;
  if (rowCur.length < lb + 1) {
    rowPrev2 = new Int32Array((lb + 1) * 2);
    rowPrev = new Int32Array((lb + 1) * 2);
    rowCur = new Int32Array((lb + 1) * 2);
  }
  let prev2 = rowPrev2.fill(0, 0, lb + 1);
  let prev = rowPrev;
  let cur = rowCur;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    const ai = a.charCodeAt(i - 1);
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= lb; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
    }
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return prev[lb]!;
}
