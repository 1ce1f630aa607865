// Lays out the labels of one timeline row so that none overlaps another: each label sits at
// the start of what it describes, and neighbours whose labels would collide are merged into
// one label that speaks for all of them (the caller says how a group is written). Pure: the
// widths are estimated from the text, which the browser tests check against real boxes.

export interface LabelTarget {
  /** Left and right edge of what the label describes (a loop's band), in drawing units. */
  x0: number;
  x1: number;
}

export interface PlacedLabel {
  /** Indices into the targets, in left-to-right order. */
  members: number[];
  text: string;
  /** Left edge of the label's text. */
  x: number;
  width: number;
}

export interface LabelBounds {
  left: number;
  right: number;
  /** Least space between two labels. */
  gap: number;
}

/**
 * Places one label per group of targets, merging groups until no two labels overlap and
 * every label lies within `bounds` (one longer than the whole row starts at its left edge;
 * the caller's `text` keeps merged labels short, so that does not happen in practice).
 */
export function layoutLabels(
  targets: readonly LabelTarget[],
  text: (members: number[]) => string,
  widthOf: (text: string) => number,
  bounds: LabelBounds,
): PlacedLabel[] {
  const order = targets.map((_, i) => i).sort((a, b) => targets[a].x0 - targets[b].x0 || a - b);
  const placeGroup = (members: number[]): PlacedLabel => place(members, targets, text, widthOf, bounds);
  // Left to right; a label that collides with any placed before it absorbs them all from
  // the first it touches, and the merged label is checked again (it is longer).
  const stack: PlacedLabel[] = [];
  for (const i of order) {
    let current = placeGroup([i]);
    for (;;) {
      const hit = stack.findIndex((p) => overlaps(p, current, bounds.gap));
      if (hit < 0) break;
      const absorbed = stack.splice(hit);
      current = placeGroup([...absorbed.flatMap((p) => p.members), ...current.members]);
    }
    stack.push(current);
  }
  return stack;
}

function overlaps(a: PlacedLabel, b: PlacedLabel, gap: number): boolean {
  return a.x + a.width + gap > b.x && b.x + b.width + gap > a.x;
}

function place(
  members: number[],
  targets: readonly LabelTarget[],
  text: (members: number[]) => string,
  widthOf: (text: string) => number,
  bounds: LabelBounds,
): PlacedLabel {
  const label = text(members);
  const width = widthOf(label);
  // A loop, not Math.min(...spread): a merged group can hold thousands of targets.
  let start = Infinity;
  for (const i of members) start = Math.min(start, targets[i].x0);
  // At the start of the group; pulled left when it would run past the row's end, never
  // past the row's start.
  const x = Math.max(bounds.left, Math.min(start, bounds.right - width));
  return { members, text: label, x, width };
}
