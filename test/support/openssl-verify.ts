// openssl as a second implementation of the cavage draft's crypto (src/signatures/cavage.ts is
// the first): it hashes bodies and checks rsa-sha256 signatures over signing strings written here,
// by hand, never by the code under test.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function inTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'openssl-verify-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** openssl's base64 SHA-256 of a body. */
export function opensslDigest(body: string): string {
  return inTempDir((dir) => {
    writeFileSync(join(dir, 'body'), body);
    return execFileSync('openssl', ['dgst', '-sha256', '-binary', join(dir, 'body')]).toString('base64');
  });
}

/** openssl's verdict on a base64 rsa-sha256 signature of `text` under an SPKI PEM public key. */
export function opensslVerifies(text: string, signature: string, publicKeyPem: string): boolean {
  return inTempDir((dir) => {
    writeFileSync(join(dir, 'pub.pem'), publicKeyPem);
    writeFileSync(join(dir, 'sig.bin'), Buffer.from(signature, 'base64'));
    writeFileSync(join(dir, 'signed.txt'), text);
    const args = ['dgst', '-sha256', '-verify', join(dir, 'pub.pem'), '-signature', join(dir, 'sig.bin')];
    try {
      execFileSync('openssl', [...args, join(dir, 'signed.txt')], { stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  });
}

/** A received notification as a test holds it: lower-case header names. */
export interface SignedNotification {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * openssl's verdict on a notification signed as Form3 signs them: the Digest against the body and
 * the signature over `(request-target) host date digest content-type` of a POST, written out here.
 */
export function opensslAccepts(r: SignedNotification, publicKeyPem: string): boolean {
  const h = (name: string) => String(r.headers[name] ?? '');
  if (`SHA-256=${opensslDigest(r.body)}` !== h('digest')) return false;
  const url = new URL(r.url, `http://${h('host')}`);
  const text = [
    `(request-target): post ${url.pathname}${url.search}`,
    `host: ${url.host}`,
    `date: ${h('date')}`,
    `digest: ${h('digest')}`,
    `content-type: ${h('content-type')}`,
  ].join('\n');
  return opensslVerifies(text, /signature="([^"]+)"/.exec(h('signature'))?.[1] ?? '', publicKeyPem);
}
