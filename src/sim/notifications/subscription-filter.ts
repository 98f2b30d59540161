/**
 * A subscription's `filter`: a string in Form3's model, whose syntax Form3 does not publish. The
 * simulator takes the simplest that serves: conditions `path=value` joined by ` and `, each an
 * equality on a dotted path into the changed resource (`attributes.bank_id=400300 and
 * attributes.country=GB`). A value may be double-quoted to hold spaces or ` and `. Decision 011.
 */
export interface FilterCondition {
  path: string;
  value: string;
}

const PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
const SYNTAX = "conditions path=value joined by ' and ' (e.g. attributes.bank_id=400300 and attributes.country=GB)";

/** Splits on ` and ` outside double quotes. */
function split(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    if (!quoted && /\s/.test(c) && /^\s+and(\s+|$)/i.test(text.slice(i))) {
      parts.push(current);
      current = '';
      i += /^\s+and(\s+|$)/i.exec(text.slice(i))![0].length - 1;
      continue;
    }
    current += c;
  }
  if (quoted) throw new Error(`filter in body has an unclosed double quote; use ${SYNTAX}`);
  parts.push(current);
  return parts;
}

/** The conditions of a filter; throws an Error whose message names the rule (a 400 in the API). */
export function parseFilter(text: string): FilterCondition[] {
  if (text.trim() === '') return [];
  return split(text).map((part) => {
    const eq = part.indexOf('=');
    if (eq === -1) throw new Error(`filter in body: "${part.trim()}" is no condition; use ${SYNTAX}`);
    const path = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (!PATH.test(path)) throw new Error(`filter in body: "${path}" is no dotted path; use ${SYNTAX}`);
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    else if (value.includes('"')) throw new Error(`filter in body: quote a whole value, not part of it; use ${SYNTAX}`);
    return { path, value };
  });
}

/** Why a filter cannot be used, or undefined. */
export function filterProblem(text: string): string | undefined {
  try {
    parseFilter(text);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

const parsed = new Map<string, FilterCondition[]>();

/** The conditions of a stored (valid) filter, parsed once. */
export function conditionsOf(text: string): FilterCondition[] {
  let conditions = parsed.get(text);
  if (!conditions) {
    conditions = parseFilter(text);
    if (parsed.size > 10_000) parsed.clear();
    parsed.set(text, conditions);
  }
  return conditions;
}
