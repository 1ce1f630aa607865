// Where recreations are denser than the drawing can show (a loop of 25 recreations in four
// minutes of a ten-hour timeline falls on two or three pixels), one mark stands for all the
// recreations of one class that fall in the same narrow column of a row. The count goes to
// the mark's tooltip and click, so thousands of recreations draw as hundreds of marks and
// nothing is lost.

export interface MarkInput {
  /** Index into doc.recreations. */
  idx: number;
  /** Horizontal position in drawing units. */
  x: number;
  classification: string;
  /** Deletion time in ms, or null when it does not parse (drawn at the left edge). */
  time: number | null;
}

export interface MarkBin {
  /** Mean position of its members. */
  x: number;
  classification: string;
  /** Its recreations, chronological (undated last, then document order). */
  members: number[];
  undated: boolean;
}

/**
 * Groups one row's marks by class and by column of `binWidth` units; a column with one
 * recreation gives a mark of its own, exactly where it was. Bins come out left to right.
 */
export function binMarks(marks: readonly MarkInput[], binWidth: number): MarkBin[] {
  const bins = new Map<string, { sum: number; items: MarkInput[]; undated: boolean }>();
  for (const m of marks) {
    const undated = m.time === null;
    const key = `${undated ? 'u' : Math.floor(m.x / binWidth)}\u0000${m.classification}`;
    let b = bins.get(key);
    if (!b) {
      b = { sum: 0, items: [], undated };
      bins.set(key, b);
    }
    b.sum += m.x;
    b.items.push(m);
  }
  const out: MarkBin[] = [];
  for (const b of bins.values()) {
    b.items.sort((a, c) => (a.time ?? Infinity) - (c.time ?? Infinity) || a.idx - c.idx);
    out.push({
      x: b.sum / b.items.length,
      classification: b.items[0].classification,
      members: b.items.map((m) => m.idx),
      undated: b.undated,
    });
  }
  return out.sort((a, c) => a.x - c.x || a.members[0] - c.members[0]);
}
