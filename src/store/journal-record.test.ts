import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeRecord } from './journal-record.ts';

const line = (json: string) => `${crc32(json).toString(16).padStart(8, '0')} ${json}`;

describe('decodeRecord', () => {
  it('reads a whole record', () => {
    const json = '{"seq":3,"rows":[["a","1",{"id":"1"},1],["a","2"]],"meta":[["k",1],["gone"]],"clear":["k"]}';
    expect(decodeRecord(line(json))).toEqual(JSON.parse(json));
  });

  it('tells a line that may be torn (no checksum, or a wrong one) from a whole line that is no record', () => {
    expect(decodeRecord('short')).toEqual({ whole: false, why: 'no checksum' });
    expect(decodeRecord(`00000000 {"seq":1,"rows":[],"meta":[]}`)).toEqual({ whole: false, why: 'checksum mismatch' });
    expect(decodeRecord(line('{"seq":1,'))).toMatchObject({ whole: true, why: expect.stringMatching(/^not JSON/) });
  });

  it.each([
    ['[]', 'not an object'],
    ['{"rows":[],"meta":[]}', 'seq must be a whole number from 1'],
    ['{"seq":0,"rows":[],"meta":[]}', 'seq must be a whole number from 1'],
    ['{"seq":1,"rows":{},"meta":[]}', 'rows must be an array'],
    ['{"seq":1,"rows":[5],"meta":[]}', 'rows[0] must be'],
    ['{"seq":1,"rows":[["a"]],"meta":[]}', 'rows[0] must be'],
    ['{"seq":1,"rows":[["a",1,{}]],"meta":[]}', 'rows[0] must be'],
    ['{"seq":1,"rows":[["a","1",{},2]],"meta":[]}', 'rows[0] must be'],
    ['{"seq":1,"rows":[],"meta":"x"}', 'meta must be an array'],
    ['{"seq":1,"rows":[],"meta":[[]]}', 'meta[0] must be'],
    ['{"seq":1,"rows":[],"meta":[],"clear":[1]}', 'clear must be an array of meta keys'],
  ])('refuses %s as no record: %s', (json, why) => {
    expect(decodeRecord(line(json))).toEqual({
      whole: true,
      why: expect.stringContaining(`not a journal record: ${why}`),
    });
  });
});
