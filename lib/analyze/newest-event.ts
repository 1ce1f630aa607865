// The end of the data that "active" is judged against (fights.md): the newest event of any
// stage read, kept or not. The facts hold only kept events, so the ingest records the
// newest it read beside them; the end is the later of the two.
import { compareTimes } from './time';

/** The later of two RFC 3339 times; null or '' counts as unknown. */
export function laterTime(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b || null;
  if (!b) return a;
  return compareTimes(b, a) > 0 ? b : a;
}
