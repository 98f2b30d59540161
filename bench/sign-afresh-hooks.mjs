// The load hook of bench/sign-afresh.mjs (test-only): the responder signer's module, built or
// source, with its signature cache's default size 0. It throws when the module no longer reads
// that default, so the guard fails loudly rather than measuring cached signatures.
const SIGNER = /\/api\/open-banking\/responder-signer\.(js|ts)$/;
const DEFAULT_SIZE = 'cacheEntries = DEFAULT_SIGNATURE_CACHE';

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!SIGNER.test(new URL(url).pathname)) return loaded;
  const source = String(loaded.source);
  if (!source.includes(DEFAULT_SIZE))
    throw new Error(`bench/sign-afresh-hooks.mjs: ${url} no longer has \`${DEFAULT_SIZE}\`; update the hook`);
  return { ...loaded, source: source.replace(DEFAULT_SIZE, 'cacheEntries = 0') };
}
