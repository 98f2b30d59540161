// Content negotiation on the Accept header (RFC 9110 §12.5.1): q-values, wildcards, specificity.

export interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** The media ranges of an Accept header; malformed entries are skipped. */
export function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim());
    const m = /^([\w.+*-]+)\/([\w.+*-]+)$/.exec((range ?? '').toLowerCase());
    if (!m || (m[1] === '*' && m[2] !== '*')) continue;
    let q = 1;
    for (const p of params) {
      const qm = /^q\s*=\s*([0-9.]+)$/i.exec(p);
      if (qm) q = Math.min(1, Math.max(0, Number(qm[1]) || 0));
    }
    out.push({ type: m[1]!, subtype: m[2]!, q });
  }
  return out;
}

/** How closely a range matches a media type: 3 exact, 2 type/*, 1 *\/*, 0 no match. */
function specificity(range: MediaRange, mediaType: string): number {
  const [type, subtype] = mediaType.split('/') as [string, string];
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === '*' && range.subtype === '*') return 1;
  return 0;
}

/**
 * The candidate the client prefers: by q of the most specific matching range, then by how
 * specifically it was asked for, then by the order of `candidates`. No or empty Accept: the first
 * candidate. Null when nothing acceptable is offered.
 */
export function negotiate(accept: string | undefined, candidates: readonly string[]): string | null {
  if (candidates.length === 0) return null;
  if (accept === undefined || accept.trim() === '') return candidates[0]!;
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return null;
  let best: { candidate: string; q: number; spec: number; index: number } | null = null;
  candidates.forEach((candidate, index) => {
    let spec = 0;
    let q = 0;
    for (const r of ranges) {
      const s = specificity(r, candidate);
      if (s > spec) {
        spec = s;
        q = r.q;
      }
    }
    if (spec === 0 || q <= 0) return;
    if (!best || q > best.q || (q === best.q && spec > best.spec)) best = { candidate, q, spec, index };
  });
  return (best as { candidate: string } | null)?.candidate ?? null;
}
