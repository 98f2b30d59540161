// Compares what a page says a command prints with what it printed: JSON by its fields, other lines
// as text. `…` stands for what the page trimmed: a value, the rest of an object's members or an
// array's items, part of a string or line, or (alone on a line) any number of lines. Timestamps
// match any timestamp unless the clock was frozen; a UUID the page's commands did not choose
// matches any UUID (ids and error codes the simulator makes differ on every run).

export type Pattern =
  | { t: 'any' }
  | { t: 'scalar'; v: string | number | boolean | null }
  | { t: 'arr'; items: Pattern[]; open: boolean }
  | { t: 'obj'; members: Array<[string, Pattern]>; open: boolean };

type Segment = { kind: 'json'; value: Pattern } | { kind: 'text'; line: string } | { kind: 'gap' };

export interface MatchContext {
  /** The clock was frozen: timestamps compare exactly. */
  frozen: boolean;
  /** UUIDs the page's commands wrote: they must come back as written. */
  given: ReadonlySet<string>;
}

const ELLIPSIS = '…';
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A JSON value starting at `at` (whitespace skipped), `…` allowed as a value, member or item. */
function parseValue(text: string, at: number): { value: Pattern; end: number } {
  let i = at;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at offset ${i}`);
  };
  /** Steps over the closing bracket and answers the value it closed. */
  const closed = (p: Pattern): Pattern => {
    i++;
    return p;
  };
  const value = (): Pattern => {
    ws();
    const ch = text[i];
    if (ch === ELLIPSIS) {
      i++;
      return { t: 'any' };
    }
    if (ch === '"') return { t: 'scalar', v: string() };
    if (ch === '{') {
      i++;
      const members: Array<[string, Pattern]> = [];
      let open = false;
      ws();
      if (text[i] === '}') return closed({ t: 'obj', members, open });
      for (;;) {
        ws();
        if (text[i] === ELLIPSIS) {
          i++;
          open = true;
        } else {
          if (text[i] !== '"') fail('expected a key');
          const key = string();
          ws();
          if (text[i] !== ':') fail('expected ":"');
          i++;
          members.push([key, value()]);
        }
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return closed({ t: 'obj', members, open });
        else fail('expected "," or "}"');
      }
    }
    if (ch === '[') {
      i++;
      const items: Pattern[] = [];
      let open = false;
      ws();
      if (text[i] === ']') return closed({ t: 'arr', items, open });
      for (;;) {
        ws();
        if (text[i] === ELLIPSIS) {
          i++;
          open = true;
        } else items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return closed({ t: 'arr', items, open });
        else fail('expected "," or "]"');
      }
    }
    const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!literal) return fail('expected a value');
    i += literal[0].length;
    return { t: 'scalar', v: JSON.parse(literal[0]) as number | boolean | null };
  };
  const string = (): string => {
    const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
    if (!m) return fail('unterminated string');
    i += m[0].length;
    return JSON.parse(m[0]) as string;
  };
  const v = value();
  return { value: v, end: i };
}

/** Text as segments: JSON values (a line starting with `{` or `[`), `…` lines and other lines. */
export function segmentsOf(text: string): Segment[] {
  const segments: Segment[] = [];
  let i = 0;
  while (i < text.length) {
    const eol = text.indexOf('\n', i);
    const line = text.slice(i, eol === -1 ? text.length : eol);
    const next = eol === -1 ? text.length : eol + 1;
    const trimmed = line.trim();
    if (trimmed === '') {
      i = next;
      continue;
    }
    if (trimmed === ELLIPSIS) {
      segments.push({ kind: 'gap' });
      i = next;
      continue;
    }
    if (/^[[{]/.test(trimmed)) {
      try {
        const { value, end } = parseValue(text, i);
        const rest = text.indexOf('\n', end);
        if (text.slice(end, rest === -1 ? text.length : rest).trim() === '') {
          segments.push({ kind: 'json', value });
          i = rest === -1 ? text.length : rest + 1;
          continue;
        }
      } catch {
        // not JSON: a line of text
      }
    }
    segments.push({ kind: 'text', line: trimmed });
    i = next;
  }
  return segments;
}

const isTimestamp = (s: string) => new RegExp(`^${TIMESTAMP.source}$`).test(s);
const isUuid = (s: string) => new RegExp(`^${UUID.source}$`, 'i').test(s);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `actual` differs from the pattern, one line per difference (empty: it matches). */
function compare(p: Pattern, actual: unknown, path: string, ctx: MatchContext): string[] {
  const show = (v: unknown) => JSON.stringify(v);
  if (p.t === 'any') return [];
  if (p.t === 'scalar') {
    const v = p.v;
    if (typeof v === 'string' && typeof actual === 'string') {
      if (v.includes(ELLIPSIS)) {
        const re = new RegExp(`^${v.split(ELLIPSIS).map(escapeRegExp).join('[\\s\\S]*')}$`);
        return re.test(actual) ? [] : [`${path}: ${show(actual)} does not read ${show(v)}`];
      }
      if (!ctx.frozen && isTimestamp(v) && isTimestamp(actual)) return [];
      if (isUuid(v) && !ctx.given.has(v.toLowerCase()) && isUuid(actual)) return [];
    }
    return v === actual ? [] : [`${path}: ${show(actual)} where the page shows ${show(v)}`];
  }
  if (p.t === 'arr') {
    if (!Array.isArray(actual)) return [`${path}: ${show(actual)} where the page shows an array`];
    const out: string[] = [];
    if (p.open ? actual.length < p.items.length : actual.length !== p.items.length)
      out.push(`${path}: ${actual.length} items where the page shows ${p.items.length}${p.open ? ' or more' : ''}`);
    p.items.forEach((item, k) => {
      if (k < actual.length) out.push(...compare(item, actual[k], `${path}[${k}]`, ctx));
    });
    return out;
  }
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
    return [`${path}: ${show(actual)} where the page shows an object`];
  const record = actual as Record<string, unknown>;
  const out: string[] = [];
  for (const [key, item] of p.members) {
    if (!(key in record)) out.push(`${path}.${key}: absent, the page shows it`);
    else out.push(...compare(item, record[key], `${path}.${key}`, ctx));
  }
  if (!p.open) {
    const shown = new Set(p.members.map(([k]) => k));
    for (const key of Object.keys(record))
      if (!shown.has(key)) out.push(`${path}.${key}: ${show(record[key])} is not on the page`);
  }
  return out;
}

/** A line as compared: volatile timestamps and ids made alike in both. */
function normalise(line: string, ctx: MatchContext): string {
  let out = line.replace(UUID, (id) => (ctx.given.has(id.toLowerCase()) ? id : '<id>'));
  if (!ctx.frozen) out = out.replace(TIMESTAMP, '<time>');
  return out;
}

function textMatches(expected: string, actual: string, ctx: MatchContext): boolean {
  const parts = normalise(expected, ctx).split(ELLIPSIS).map(escapeRegExp);
  return new RegExp(`^${parts.join('.*')}$`).test(normalise(actual, ctx));
}

/** The actual output's segments as plain values, for comparing and for messages. */
function actualSegments(text: string): Array<{ kind: 'json'; value: unknown } | { kind: 'text'; line: string }> {
  return segmentsOf(text).map((s) => {
    if (s.kind === 'json') return { kind: 'json', value: toValue(s.value) };
    if (s.kind === 'gap') return { kind: 'text', line: ELLIPSIS };
    return s;
  });
}

function toValue(p: Pattern): unknown {
  if (p.t === 'scalar') return p.v;
  if (p.t === 'arr') return p.items.map(toValue);
  if (p.t === 'obj') return Object.fromEntries(p.members.map(([k, v]) => [k, toValue(v)]));
  return ELLIPSIS;
}

/**
 * The differences between the output a page shows and the output the command printed (empty: they
 * agree). Segments match in order; a `…` line matches any number of actual segments.
 */
export function outputDifferences(expected: string, actual: string, ctx: MatchContext): string[] {
  const want = segmentsOf(expected);
  const got = actualSegments(actual);
  const walk = (w: number, g: number): string[] => {
    if (w === want.length) return g === got.length ? [] : [`more output than the page shows: ${describe(got[g]!)}`];
    const seg = want[w]!;
    if (seg.kind === 'gap') {
      let fewest: string[] | undefined;
      for (let skip = g; skip <= got.length; skip++) {
        const rest = walk(w + 1, skip);
        if (rest.length === 0) return [];
        if (!fewest || rest.length < fewest.length) fewest = rest;
      }
      return fewest ?? [];
    }
    const have = got[g];
    if (!have)
      return [`the page shows ${seg.kind === 'text' ? JSON.stringify(seg.line) : 'a JSON value'}; nothing more came`];
    let here: string[];
    if (seg.kind === 'text')
      here =
        have.kind === 'text' && textMatches(seg.line, have.line, ctx)
          ? []
          : [`the page shows ${JSON.stringify(seg.line)}; it printed ${describe(have)}`];
    else
      here =
        have.kind === 'json'
          ? compare(seg.value, have.value, '$', ctx)
          : [`the page shows a JSON value; it printed ${describe(have)}`];
    return here.length > 0 ? here : walk(w + 1, g + 1);
  };
  return walk(0, 0);
}

function describe(s: { kind: 'json'; value: unknown } | { kind: 'text'; line: string }): string {
  const text = s.kind === 'json' ? JSON.stringify(s.value) : JSON.stringify(s.line);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** The UUIDs written in a text (lower case). */
export function uuidsIn(text: string): Set<string> {
  return new Set([...text.matchAll(UUID)].map((m) => m[0].toLowerCase()));
}
