/**
 * Relative links of a markdown file and GitHub's heading anchors, for the link test (test/doc-links.test.ts).
 */

/** A link as written: its line and target (`file.md#anchor`, `#anchor`, `../x`, `https://…`). */
export interface MdLink {
  readonly line: number;
  readonly target: string;
}

/** The text with fenced blocks and inline code spans blanked out (same line numbers), so links in code are ignored. */
export function withoutCode(text: string): string {
  return withoutFences(text).split('\n').map((l) => l.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length))).join('\n');
}

/** The text with fenced blocks blanked out (same line numbers). */
function withoutFences(text: string): string {
  const lines = text.split('\n');
  let fence: string | undefined;
  const out = lines.map((l) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(l);
    if (fence !== undefined) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && l.trim().replace(/[`~]/g, '') === '') fence = undefined;
      return '';
    }
    if (f) {
      fence = f[1]!;
      return '';
    }
    return l;
  });
  return out.join('\n');
}

/** Inline links and images `[text](target "title")`, reference definitions `[x]: target`, and HTML `href`/`src`. */
export function links(text: string): MdLink[] {
  const out: MdLink[] = [];
  withoutCode(text).split('\n').forEach((l, i) => {
    for (const m of l.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line: i + 1, target: m[1]! });
    const def = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(l);
    if (def) out.push({ line: i + 1, target: def[1]! });
    for (const m of l.matchAll(/\b(?:href|src)\s*=\s*"([^"]+)"/g)) out.push({ line: i + 1, target: m[1]! });
  });
  return out;
}

/** The visible text of a heading's inline markdown: code spans, emphasis and link syntax removed. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*)/g, '');
}

/** GitHub's slug of one heading text: lower case, punctuation dropped, each space a hyphen. */
export function githubSlug(raw: string): string {
  return headingText(raw).trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** Every anchor the file's headings get on GitHub (a repeated slug gets -1, -2, … in order). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const l of withoutFences(text).split('\n')) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    if (!h) continue;
    const base = githubSlug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}
