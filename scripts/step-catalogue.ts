// `npm run docs:steps`: writes docs/steps.md, QA's catalogue of the Gherkin steps, from the step
// definitions in features/steps. A test fails when the file is out of date, so it stays current.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
export const CATALOGUE_FILE = join(ROOT, 'docs', 'steps.md');

export interface StepDefinition {
  keyword: 'Given' | 'When' | 'Then';
  pattern: string;
  file: string;
  /** The comment just above the definition, if any: what the step is for. */
  note?: string;
  /** A line of a .feature that uses it. */
  example?: string;
  /** The {{names}} it remembers, read from the code that sets them. */
  remembers: string[];
}

const DEFINITION = /(^|\n)((?:\/\/[^\n]*\n)*)(Given|When|Then)\(\s*(['"`])((?:\\.|(?!\4).)*)\4/g;

/** The definitions of one steps file, in order. */
export function definitionsOf(source: string, file: string): StepDefinition[] {
  const out: StepDefinition[] = [];
  const matches = [...source.matchAll(DEFINITION)];
  for (const [i, m] of matches.entries()) {
    const note = (m[2] ?? '')
      .split('\n')
      .map((l) => l.replace(/^\/\/\s?/, '').trim())
      .filter(Boolean)
      .join(' ');
    // The body runs to the next definition: what it writes into this.vars is what it remembers.
    const body = source.slice(m.index, matches[i + 1]?.index ?? source.length);
    const remembers = new Set<string>();
    for (const v of body.matchAll(/this\.vars\.(\w+)\s*=/g)) remembers.add(v[1]!);
    for (const v of body.matchAll(/this\.vars\[`\$\{name\}(\w+)`\]\s*=/g)) remembers.add(`<name>${v[1]}`);
    if (/this\.vars\[name\]\s*=/.test(body)) remembers.add('<name>');
    out.push({
      keyword: m[3] as StepDefinition['keyword'],
      pattern: m[5]!.replace(/\\(['"`])/g, '$1'),
      file,
      ...(note ? { note } : {}),
      remembers: [...remembers],
    });
  }
  return out;
}

/** A regular expression for a cucumber expression: {string}, {int}, {float}, {word}, (optional), a/b. */
export function expressionRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '{') {
      const end = pattern.indexOf('}', i);
      const type = pattern.slice(i + 1, end);
      re += type === 'int' ? '-?\\d+' : type === 'float' ? '-?[\\d.]+' : type === 'word' ? '\\S+' : '"[^"]*"';
      i = end;
    } else if (ch === '(') {
      const end = pattern.indexOf(')', i);
      re += `(?:${escapeRegExp(pattern.slice(i + 1, end))})?`;
      i = end;
    } else if (/\w/.test(ch) && pattern[i + 1] === '/') {
      // a/b: alternatives of single words
      const word = /^[\w/]+/.exec(pattern.slice(i))![0];
      re = re.replace(/\w*$/, '');
      const start = pattern.slice(0, i).match(/\w*$/)![0];
      re += `(?:${[start + word.split('/')[0], ...word.split('/').slice(1)].map(escapeRegExp).join('|')})`;
      i += word.length - 1;
    } else re += escapeRegExp(ch);
  }
  return new RegExp(`^\\s*(?:Given|When|Then|And|But|\\*)\\s+${re}\\s*:?$`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function featureLines(): string[] {
  const dir = join(ROOT, 'features');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.feature'))
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'));
}

export function catalogue(): string {
  const dir = join(ROOT, 'features', 'steps');
  const lines = featureLines();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.steps.ts'))
    .sort();
  const parts = [
    '# Step catalogue',
    '',
    'Every step the features can use, generated from `features/steps/` by `npm run docs:steps` (a test',
    'fails when this file is out of date). Write scenarios with these steps; no TypeScript needed.',
    '',
    '## Remembered values',
    '',
    'A step writes `{{name}}` and the harness fills in a value remembered earlier in the scenario.',
    "Always there: `{{organisation_id}}` (the acting client's organisation), `{{webhook_url}}` (the",
    "harness's webhook receiver) and `{{new_uuid}}` (a fresh UUID each time). The steps below that",
    'remember values say which names they set (`<name>` is the name the step is given).',
    '',
  ];
  for (const file of files) {
    const defs = definitionsOf(readFileSync(join(dir, file), 'utf8'), file);
    if (defs.length === 0) continue;
    parts.push(`## ${file.replace('.steps.ts', '')}`, '', '| step | remembers | example |', '| --- | --- | --- |');
    for (const d of defs) {
      const re = expressionRegExp(d.pattern);
      const example = lines.find((l) => re.test(l))?.trim();
      const step = `**${d.keyword}** ${d.pattern}${d.note ? `<br>${d.note}` : ''}`;
      const remembers = d.remembers.map((r) => `\`{{${r}}}\``).join(' ');
      parts.push(`| ${cell(step)} | ${remembers} | ${example ? `\`${cell(example)}\`` : '(no feature uses it yet)'} |`);
    }
    parts.push('');
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

if (process.argv[1]?.endsWith('step-catalogue.ts')) {
  writeFileSync(CATALOGUE_FILE, catalogue());
  console.log(`wrote ${CATALOGUE_FILE}`);
}
