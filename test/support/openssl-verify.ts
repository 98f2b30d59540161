import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signingString } from '../../src/signatures/cavage.ts';

/** A received notification as a test holds it: lower-case header names. */
export interface SignedNotification {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * openssl's verdict on a notification signed as Form3 signs them: the Digest against the body and
 * the signature over the draft's signing string (a second implementation, not the shipped verifier).
 */
export function opensslAccepts(r: SignedNotification, publicKeyPem: string): boolean {
  const h = (name: string) => String(r.headers[name] ?? '');
  const dir = mkdtempSync(join(tmpdir(), 'openssl-verify-'));
  try {
    const signature = /signature="([^"]+)"/.exec(h('signature'))?.[1] ?? '';
    writeFileSync(join(dir, 'pub.pem'), publicKeyPem);
    writeFileSync(join(dir, 'sig.bin'), Buffer.from(signature, 'base64'));
    const text = signingString('POST', new URL(r.url, `http://${h('host')}`), {
      date: h('date'),
      digest: h('digest'),
      contentType: h('content-type'),
    });
    writeFileSync(join(dir, 'signed.txt'), text);
    writeFileSync(join(dir, 'body.json'), r.body);
    const digest = execFileSync('openssl', ['dgst', '-sha256', '-binary', join(dir, 'body.json')]).toString('base64');
    if (`SHA-256=${digest}` !== h('digest')) return false;
    try {
      execFileSync(
        'openssl',
        [
          'dgst',
          '-sha256',
          '-verify',
          join(dir, 'pub.pem'),
          '-signature',
          join(dir, 'sig.bin'),
          join(dir, 'signed.txt'),
        ],
        { stdio: 'pipe' },
      );
      return true;
    } catch {
      return false;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
