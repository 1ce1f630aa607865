// A change `from → to` shortened for a fixed-width column. Cutting each value's end hides
// exactly what changed when two values share a long start (an image `…/kafka:2.13-3.6.1`
// → `…/kafka:2.13-3.7.0` both became `ghcr.io/adobe/kafka:2.1…`): here each value keeps
// the part that differs from the other, with as much context on both sides as fits, and
// `…` where text was left out.

/** Both values shortened to at most `max` code points each, the differing part kept. */
export function shortenChange(from: string, to: string, max: number): [string, string] {
  const a = [...from];
  const b = [...to];
  if (a.length <= max && b.length <= max) return [from, to];
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  return [keepWindow(a, prefix, a.length - suffix, max), keepWindow(b, prefix, b.length - suffix, max)];
}

/**
 * `chars` cut to `max` around [start, end): the window grows a character at a time, to the
 * right first (a tag's end, a quantity's unit), then to the left, until it fills `max`
 * counting one `…` for each side cut.
 */
export function keepWindow(chars: string[], start: number, end: number, max: number): string {
  if (chars.length <= max) return chars.join('');
  if (max < 3) return chars.slice(0, max).join('');
  const shown = (s: number, e: number): number => e - s + (s > 0 ? 1 : 0) + (e < chars.length ? 1 : 0);
  let s = Math.min(start, chars.length);
  let e = Math.max(s, Math.min(end, chars.length));
  // The difference alone is longer than the room: show its beginning.
  if (shown(s, e) > max) e = s + max - (s > 0 ? 1 : 0) - 1;
  for (let right = true; ; right = !right) {
    const grow = (): boolean => {
      if (right && e < chars.length && shown(s, e + 1) <= max) return (e++, true);
      if (!right && s > 0 && shown(s - 1, e) <= max) return (s--, true);
      return false;
    };
    if (!grow()) {
      right = !right;
      if (!grow()) break;
    }
  }
  return `${s > 0 ? '…' : ''}${chars.slice(s, e).join('')}${e < chars.length ? '…' : ''}`;
}
