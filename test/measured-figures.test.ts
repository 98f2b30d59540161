import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Figures the docs quote from the benchmarks are the ones bench/RESULTS.md records (issue 45: a
// signature's cost was quoted at 0.6–1.3 ms where every run recorded 337–409 µs, and docs/store.md
// quoted a run whose store figures RESULTS.md never kept). Each row: what the doc says, and the
// lines of the run it names that say it first.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8').replace(/\s+/g, ' ');
const RESULTS = readFileSync(join(ROOT, 'bench/RESULTS.md'), 'utf8');

/** The section of bench/RESULTS.md for a run: from its heading to the next run's. */
function run(heading: string): string {
  const starts = [...RESULTS.matchAll(/^## (?:Latest: |Earlier: )?\d{4}-\d{2}-\d{2}.*$/gm)];
  const at = starts.findIndex((m) => m[0].includes(heading));
  expect(at, `bench/RESULTS.md has a run headed "${heading}"`).toBeGreaterThanOrEqual(0);
  return RESULTS.slice(starts[at]!.index, starts[at + 1]?.index);
}

describe("docs/store.md's measured figures", () => {
  const doc = read('docs/store.md');
  const night = run('2026-11-26, 23:00–23:08 UTC');
  const cases: Array<[string, string]> = [
    ['9 / 6 / 14 ms', 'create, journal, 1,000 accounts: p99 9 ms'],
    ['9 / 6 / 14 ms', 'create, journal, 100,000 accounts: p99 6 ms'],
    ['9 / 6 / 14 ms', 'create, journal, 1,000,000 accounts: p99 14 ms'],
    ['8 / 7 / 13 ms', 'create, memory, 1,000 accounts: p99 8 ms'],
    ['8 / 7 / 13 ms', 'create, memory, 100,000 accounts: p99 7 ms'],
    ['8 / 7 / 13 ms', 'create, memory, 1,000,000 accounts: p99 13 ms'],
    ['6.7 s (an empty store 0.6 s)', 'to listening, 1,000,000 accounts: 6749.1 ms; empty store 604.6 ms'],
    ['| 649 MB | 668 MB |', 'heap after GC, 1,000,000 accounts: journal 649 MB, memory 668 MB'],
    [
      '45.4 ms (2.5 ms with no advance running)',
      'p99 45.4 ms, max 77.1 ms over 213 requests; no advance running: p99 2.5 ms',
    ],
    ['was 1.56 there', '÷ at 1,000 = 1.56'],
  ];
  it.each(cases)('quotes "%s", as the 2026-11-26 23:00 run records: %s', (quoted, recorded) => {
    expect(doc).toContain(quoted);
    expect(night).toContain(recorded);
  });

  it("quotes run D's 1M ÷ 1k ratio as run D's table records it", () => {
    expect(doc).toContain('1.29 in run D (2026-11-27 03:47, the run table in bench/RESULTS.md: 18.3 ÷ 14.2 ms');
    expect(run('(run D)')).toContain('**1.29** (18.3 ÷ 14.2 ms');
  });
});

describe("docs/cop.md's signature cost", () => {
  it('is the range of every per-signature CPU figure bench/RESULTS.md records', () => {
    const recorded = [...RESULTS.matchAll(/(\d+) µs process CPU per signature/g)].map((m) => Number(m[1]));
    expect(recorded.length).toBeGreaterThanOrEqual(3);
    const range = `${Math.min(...recorded)}–${Math.max(...recorded)} µs of process CPU`;
    expect(read('docs/cop.md')).toContain(`A PS256 signature with jose costs ${range}`);
  });

  it("compares it with a name verification's CPU per request in the runs that give both", () => {
    const perRequest = [
      ...RESULTS.matchAll(/CPU per request \(server and load generator.*?name verification (\d+) µs/g),
    ];
    const figures = perRequest.map((m) => Number(m[1]));
    expect(Math.min(...figures)).toBe(64);
    expect(Math.max(...figures)).toBe(105);
    expect(read('docs/cop.md')).toContain("a whole name verification's 64–105 µs of CPU per request");
  });
});

describe("decision 025's figures on how a fresh server warms", () => {
  const doc = read('docs/decisions/025-start-up-readies-the-first-requests.md');
  const probes = run('2026-11-29, 08:25–08:40 UTC');
  const cases: Array<[string, string]> = [
    ['first 100 requests cost the event-loop thread 52–63 ms against 23–26 ms', '| no warm-up | 52–63 ms |'],
    [
      'first 100 requests cost the event-loop thread 52–63 ms against 23–26 ms',
      '| the warm-up (60 rounds) | 23–26 ms |',
    ],
    ['(23–38 ms of the event-loop thread per 100, against 10–11 ms warm)', '| main thread, ms per 100 | 23–38 |'],
    ['(23–38 ms of the event-loop thread per 100, against 10–11 ms warm)', '| 10–11 |'],
    ['after 600–1,600 calls each', 'each handler had 600–1,600 calls by then'],
  ];
  it.each(cases)('quotes "%s", as the 08:25 probes record: %s', (quoted, recorded) => {
    expect(doc).toContain(quoted);
    expect(probes.replace(/\s+/g, ' ')).toContain(recorded);
  });

  const longer = run('2026-11-29, 11:15–11:25 UTC').replace(/\s+/g, ' ');
  const longerCases: Array<[string, string]> = [
    ['start-up to 1,440–1,509 ms', '| 1 | 1,443–1,509 ms |'],
    ['start-up to 1,440–1,509 ms', '| 2 | 1,440–1,493 ms |'],
    ["1.27–1.51 times a warm 400's CPU", '| 1.27–1.43 (1.36–1.45) |'],
    ["1.27–1.51 times a warm 400's CPU", '| 1.42–1.51 (1.47–1.49) |'],
    ['still read 1.30–3.26 per server', 'moved 1.30–3.26 between servers'],
    ['and 2.38 in one of two runs', '| **2.38, not held** |'],
  ];
  it.each(longerCases)('quotes "%s", as the 11:15 probes record: %s', (quoted, recorded) => {
    expect(doc).toContain(quoted);
    expect(longer).toContain(recorded);
  });
});
