// Text and names for XML / XHTML output, whatever a client put in a report's rows.

/** Escapes text for element content and attribute values; drops characters XML 1.0 cannot carry. */
export function escapeXml(s: string): string {
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A valid XML element name from any key: invalid characters become `_`, a bad start gets `_`. */
export function xmlName(key: string): string {
  let name = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  if (!/^[A-Za-z_]/.test(name) || /^xml/i.test(name)) name = `_${name}`;
  return name;
}
