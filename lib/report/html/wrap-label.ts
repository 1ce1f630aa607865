// Breaks a Kubernetes name into lines of at most `maxChars` characters, so a timeline label
// shows in full in its column instead of ending in "…" (object names run to 253 characters).
// A line ends where a reader would split: at a space or before `[` by preference (between
// words), else after `/`, `-`, `.` or `_` (inside a name); a run longer than a line with no
// separator is cut where the line is full.

const WORD_BREAK_AFTER = new Set([' ']);
const NAME_BREAK_AFTER = new Set(['/', '-', '.', '_']);

export function wrapLabel(text: string, maxChars: number): string[] {
  const width = Math.max(1, Math.floor(maxChars));
  const chars = [...text.trim()];
  const lines: string[] = [];
  let start = 0;
  while (chars.length - start > width) {
    const end = start + width;
    const wordBreak = lastBreak(
      chars,
      start,
      end,
      (i) => WORD_BREAK_AFTER.has(chars[i - 1]) || chars[i] === '[',
    );
    const nameBreak = lastBreak(chars, start, end, (i) => NAME_BREAK_AFTER.has(chars[i - 1]));
    // A word break that leaves the line less than a third full wastes the column: split the name instead.
    let cut = wordBreak > start + width / 3 ? wordBreak : Math.max(wordBreak, nameBreak);
    if (cut <= start) cut = end;
    lines.push(chars.slice(start, cut).join('').trimEnd());
    start = cut;
    while (chars[start] === ' ') start++;
  }
  if (start < chars.length) lines.push(chars.slice(start).join(''));
  return lines;
}

/** The last index in (start, end] before which a line may end, or -1. */
function lastBreak(
  chars: readonly string[],
  start: number,
  end: number,
  isBreak: (i: number) => boolean,
): number {
  for (let i = end; i > start; i--) if (isBreak(i)) return i;
  return -1;
}
