// The relative links of Markdown files, and whether each one finds its file and its heading,
// by GitHub's rules: a heading's anchor is its text lower-cased, with every character but
// letters, digits, `-` and `_` dropped and each space turned into `-`; a second heading of
// the same text gets `-1`, a third `-2`. Code (fenced blocks, inline spans) holds no links.
import { existsSync, readFileSync } from 'fs';
import * as path from 'path';

export interface Link {
  /** The file the link is in, as given. */
  file: string;
  line: number;
  /** What the link points at, as written. */
  target: string;
}

/** The text with its code blanked out, line for line, so that line numbers stay. */
function withoutCode(text: string): string {
  const lines = text.split('\n');
  let fence: string | null = null;
  return lines
    .map((l) => {
      const m = /^\s{0,3}(`{3,}|~{3,})/.exec(l);
      if (fence !== null) {
        if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && l.trim() === m[1]) fence = null;
        return '';
      }
      if (m) {
        fence = m[1]!;
        return '';
      }
      return l.replace(/(`+)[\s\S]*?\1/g, (s) => ' '.repeat(s.length));
    })
    .join('\n');
}

/** GitHub's anchor for a heading's text. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown text's headings (and explicit `id`/`name` anchors) give. */
export function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const lines = text.split('\n');
  // Headings are read with their code spans kept (a `flag` in a heading is part of its
  // anchor); only fenced blocks are left out.
  const blank = withoutCode(text).split('\n');
  lines.forEach((l, i) => {
    if (blank[i] === '' && l !== '') return;
    const m = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(l);
    if (m) {
      const base = slug(m[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of blank[i]!.matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) out.add(a[1]!);
  });
  return out;
}

/** Every link of a Markdown text that is not a URL with a scheme (http:, mailto:, …). */
export function relativeLinks(file: string, text: string): Link[] {
  const out: Link[] = [];
  withoutCode(text)
    .split('\n')
    .forEach((l, i) => {
      const targets = [
        ...[...l.matchAll(/\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
        ...[...l.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(\S+)/g)].map((m) => m[1]!),
      ];
      for (const t of targets.map((x) => x.replace(/^<|>$/g, ''))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(t)) continue;
        out.push({ file, line: i + 1, target: t });
      }
    });
  return out;
}

/** What is wrong with a link, or null: its file must exist, its anchor name a heading. */
export function linkProblem(
  link: Link,
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): string | null {
  const hash = link.target.indexOf('#');
  const filePart = hash < 0 ? link.target : link.target.slice(0, hash);
  const anchor = hash < 0 ? null : decodeURIComponent(link.target.slice(hash + 1));
  const target =
    filePart === '' ? link.file : path.join(path.dirname(link.file), decodeURIComponent(filePart));
  if (filePart !== '' && !existsSync(target)) return `no such file: ${target}`;
  if (anchor === null || !target.endsWith('.md')) return null;
  if (anchor === '') return 'an empty anchor';
  return anchors(read(target)).has(anchor) ? null : `no heading with anchor #${anchor} in ${target}`;
}
