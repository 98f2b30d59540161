// The `sh` blocks of a Markdown page as the executable-docs check runs them: each block with the
// marker comment before it, the output shown after it, and its commands one by one, each with the
// status and the output its comments state.

/** A fenced block of the page. */
export interface Fence {
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** One shell command as written (continuation lines and quoted newlines included). */
export interface DocCommand {
  text: string;
  /** 1-based line of the page where the command starts. */
  line: number;
  /** `# 201` after the command: the HTTP status its last curl answers. */
  status?: number;
  /** `# {…}` lines right under the command: the JSON it prints. */
  output?: string;
}

export interface ShBlock extends Fence {
  /** `<!-- docs-check: skip: why -->` on the line before the fence: not run, and why. */
  skip?: string;
  /** The output fence that follows the block (blank lines between at most): what the whole block prints. */
  output?: Fence;
  commands: DocCommand[];
}

const MARKER = /^<!--\s*docs-check:\s*(.*?)\s*-->$/;

/** The fences of a Markdown text, in order. */
export function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    fences.push({ lang: open[1]!, text: body.join('\n'), line: start + 1 });
  }
  return fences;
}

/**
 * The `sh` blocks of a page. A marker other than `skip: <reason>` is refused, as is a skip without
 * its reason: a block the check does not run must say why.
 */
export function shBlocksOf(markdown: string): ShBlock[] {
  const lines = markdown.split('\n');
  const fences = fencesOf(markdown);
  const blocks: ShBlock[] = [];
  fences.forEach((fence, index) => {
    if (fence.lang !== 'sh') return;
    const block: ShBlock = { ...fence, commands: commandsOf(fence.text, fence.line + 1) };
    let before = fence.line - 2;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = before >= 0 ? MARKER.exec(lines[before]!.trim()) : null;
    if (marker) {
      const skip = /^skip:\s*(\S.*)$/.exec(marker[1]!);
      if (!skip) throw new Error(`line ${before + 1}: a docs-check marker is "skip: <why the block cannot run in CI>"`);
      block.skip = skip[1]!;
    }
    const next = fences[index + 1];
    if (next && ['', 'json', 'text'].includes(next.lang)) {
      const between = lines.slice(fence.line + block.text.split('\n').length + 1, next.line - 1);
      if (between.every((l) => l.trim() === '')) block.output = next;
    }
    blocks.push(block);
  });
  return blocks;
}

/**
 * Splits shell text into commands at newlines outside quotes, `$( )` and backslash continuations.
 * A trailing comment that starts with a three-digit number states the status; comment lines that
 * start with `{` or `[` right under a command state its output.
 */
export function commandsOf(text: string, firstLine = 1): DocCommand[] {
  const commands: DocCommand[] = [];
  let current = '';
  let comments: string[] = [];
  let startLine = firstLine;
  let line = firstLine;
  let quote: "'" | '"' | undefined;
  let depth = 0;
  const finish = () => {
    const code = current.replace(/\\\n/g, ' ').trim();
    if (code !== '') {
      const command: DocCommand = { text: current.trimEnd(), line: startLine };
      const status = comments.map((c) => /^#\s*(\d{3})\b/.exec(c)).find(Boolean);
      if (status) command.status = Number(status[1]);
      commands.push(command);
    } else if (comments.length > 0) {
      const last = commands.at(-1);
      const json = comments.map((c) => c.replace(/^#\s?/, '')).join('\n');
      if (last && /^[[{]/.test(json.trim())) last.output = last.output ? `${last.output}\n${json}` : json;
    }
    current = '';
    comments = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') line++;
    if (quote === "'") {
      current += ch;
      if (ch === "'") quote = undefined;
      continue;
    }
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + text[i + 1];
      if (text[i + 1] === '\n') line++;
      i++;
      continue;
    }
    if (quote === '"') {
      current += ch;
      if (ch === '"') quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '$' && text[i + 1] === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    else if (ch === '#' && depth === 0 && (current === '' || /\s$/.test(current))) {
      const end = text.indexOf('\n', i);
      const comment = text.slice(i, end === -1 ? text.length : end);
      comments.push(comment.trim());
      i += comment.length - 1;
      continue;
    } else if (ch === '\n' && depth === 0) {
      if (current.trim() === '' && comments.length === 0) startLine = line;
      else if (!/\\$/.test(current)) {
        finish();
        startLine = line;
      }
      continue;
    }
    if (current.trim() === '' && !/\s/.test(ch)) startLine = line;
    current += ch;
  }
  finish();
  return commands;
}
