import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DurableJsonFile } from './durable-json-file.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-durable-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('DurableJsonFile', () => {
  it('reads null when there is no file, then what was written, leaving no temporary file behind', async () => {
    const file = new DurableJsonFile<{ n: number }>(join(dir, 'sim.json'));
    expect(await file.read()).toBeNull();
    await file.write({ n: 1 });
    await file.write({ n: 2 });
    expect(await file.read()).toEqual({ n: 2 });
    expect(readFileSync(join(dir, 'sim.json'), 'utf8')).toBe('{"n":2}');
    expect(readdirSync(dir)).toEqual(['sim.json']);
    expect(statSync(join(dir, 'sim.json')).mode & 0o777).toBe(0o600); // it holds the signing key and secrets
  });

  it('writes the state as it was when the write was asked for', async () => {
    const file = new DurableJsonFile<{ items: string[] }>(join(dir, 'sim.json'));
    const data = { items: ['a'] };
    const written = file.write(data);
    data.items.push('b'); // a change after the call belongs to the next write
    await written;
    expect(await file.read()).toEqual({ items: ['a'] });
  });

  it('keeps the previous file whole when a write fails', async () => {
    const path = join(dir, 'sim.json');
    const file = new DurableJsonFile<{ n: number }>(path);
    await file.write({ n: 1 });
    mkdirSync(join(dir, '.sim.json.tmp')); // the temporary file cannot be created
    await expect(file.write({ n: 2 })).rejects.toThrow(/EISDIR|illegal operation on a directory/);
    expect(await file.read()).toEqual({ n: 1 });
  });

  it('reports a file that is not JSON rather than reading it as empty', async () => {
    const path = join(dir, 'sim.json');
    writeFileSync(path, '{"n":');
    await expect(new DurableJsonFile(path).read()).rejects.toThrow(SyntaxError);
  });
});
