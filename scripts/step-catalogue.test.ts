import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_FILE, catalogue, definitionsOf, expressionRegExp } from './step-catalogue.ts';

describe('docs/steps.md', () => {
  it('is the catalogue of the current step definitions (regenerate with npm run docs:steps)', () => {
    expect(readFileSync(CATALOGUE_FILE, 'utf8')).toBe(catalogue());
  });
});

describe('step definitions', () => {
  it('are read with their comment, and what their body remembers', () => {
    const source = [
      '// Remembers the id of the thing.',
      "Given('a thing remembered as {string}', function (this: SimWorld, name: string) {",
      '  this.vars[name] = randomUUID();',
      '});',
      '',
      'When(',
      "  'I send a {word} request to {string}',",
      '  async function () {',
      '    this.vars.queue_url = url;',
      '    this.vars[`${name}_contra`] = id;',
      '  },',
      ');',
    ].join('\n');
    expect(definitionsOf(source, 'x.steps.ts')).toEqual([
      {
        keyword: 'Given',
        pattern: 'a thing remembered as {string}',
        file: 'x.steps.ts',
        note: 'Remembers the id of the thing.',
        remembers: ['<name>'],
      },
      {
        keyword: 'When',
        pattern: 'I send a {word} request to {string}',
        file: 'x.steps.ts',
        remembers: ['queue_url', '<name>_contra'],
      },
    ]);
  });

  it('are matched to feature lines as cucumber matches them', () => {
    const re = expressionRegExp('the response field {string} has {int} item(s)');
    expect(re.test('    Then the response field "data" has 2 items')).toBe(true);
    expect(re.test('    And the response field "data" has 1 item')).toBe(true);
    expect(re.test('    And the response field "data" has two items')).toBe(false);
    const word = expressionRegExp('I send a {word} request to {string} with body:');
    expect(word.test('    When I send a POST request to "/v1/x" with body:')).toBe(true);
    const alt = expressionRegExp('the claim is accepted/refused');
    expect(alt.test('Then the claim is refused')).toBe(true);
    expect(alt.test('Then the claim is accepted')).toBe(true);
  });
});
