/**
 * go-swagger's composite validation text. A go-swagger server (Form3's API, its fake account API)
 * validates a body model by model: each object's `Validate()` returns its failures as one
 * composite, `validation failure list:` followed by a line per failure, and a nested object's
 * composite is one of those lines. So a failure inside `data.attributes` reads
 * `validation failure list:\nvalidation failure list:\nvalidation failure list:\ncountry in body is required`
 * (../shared/reference/form3-contract.md §4). Within one object the failures come in property
 * order, alphabetical as go-swagger generates the validators.
 */

/** One failure: the object whose validation reports it (a JSON pointer), the field, the text. */
export interface Failure {
  /** The object reporting it: the one missing a required field, else the field's nearest object. */
  container: string;
  /** The property of that object it concerns (its sort key); '' for the object itself. */
  field: string;
  text: string;
}

interface Node {
  key: string;
  lines: Array<{ key: string; text: string }>;
  children: Map<string, Node>;
}

const PREFIX = 'validation failure list:';

function segments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.split('/').slice(1);
}

/** The value at a JSON pointer of `root` (undefined where there is none). */
export function valueAt(root: unknown, pointer: string): unknown {
  return valueAtPath(root, segments(pointer));
}

function valueAtPath(root: unknown, path: string[]): unknown {
  let at = root;
  for (const p of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[p.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return at;
}

const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The nearest object at or above `pointer` in `body` (an array of strings is no level of its
 * own: go-swagger names its items `name.4` in the object holding the array).
 */
export function containerOf(body: unknown, pointer: string): string {
  const path = segments(pointer);
  while (path.length > 0 && !isObject(valueAtPath(body, path))) path.pop();
  return path.length === 0 ? '' : `/${path.join('/')}`;
}

/** The composite text for these failures, nested once per object level of `body`. */
export function failureList(body: unknown, failures: readonly Failure[]): string {
  const root: Node = { key: '', lines: [], children: new Map() };
  for (const f of failures) {
    let node = root;
    const path: string[] = [];
    let pending: string[] = [];
    for (const seg of segments(f.container)) {
      path.push(seg);
      pending.push(seg);
      // An array is no level: its object items are levels of the object holding it.
      if (!isObject(valueAtPath(body, path))) continue;
      const key = pending.join('.');
      pending = [];
      let child = node.children.get(key);
      if (!child) {
        child = { key, lines: [], children: new Map() };
        node.children.set(key, child);
      }
      node = child;
    }
    node.lines.push({ key: f.field, text: f.text });
  }
  return render(root);
}

function render(node: Node): string {
  // Sorted by property, stable: the failures of one property keep the order they were found in.
  const items = [
    ...node.lines.map((l) => ({ key: l.key, text: l.text })),
    ...[...node.children.values()].map((c) => ({ key: c.key, text: render(c) })),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [PREFIX, ...items.map((i) => i.text)].join('\n');
}

/** A flat composite (one level: query parameters, a rule over the whole request). */
export function flatFailureList(lines: readonly string[]): string {
  return [PREFIX, ...lines].join('\n');
}
