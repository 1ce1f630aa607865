// The pure layout rules of the HTML timeline: loop labels never overlap, marks denser than
// the drawing share a bin, and nothing is lost either way.
import { layoutLabels, type LabelTarget } from '../../lib/report/html/label-layout';
import { binMarks, type MarkInput } from '../../lib/report/html/mark-bins';
import { loopLabel } from '../../lib/report/html/timeline';
import type { Loop } from '../../lib/model/findings';

const CHAR = 7;
const width = (t: string): number => t.length * CHAR;
const bounds = { left: 0, right: 1000, gap: 10 };
/** `a` for one target, `a+b` for a group: long enough to need merging when targets are close. */
const text = (members: number[]): string =>
  members.length === 1 ? `loop-${members[0]}` : `${members.length} loops from ${members[0]}`;

describe('layoutLabels', () => {
  const cases: Array<{ name: string; targets: LabelTarget[]; groups: number[][] }> = [
    { name: 'none', targets: [], groups: [] },
    {
      name: 'far apart: one label each',
      targets: [
        { x0: 0, x1: 10 },
        { x0: 200, x1: 210 },
      ],
      groups: [[0], [1]],
    },
    {
      name: 'close: merged',
      targets: [
        { x0: 0, x1: 10 },
        { x0: 30, x1: 40 },
      ],
      groups: [[0, 1]],
    },
    {
      name: 'a chain merges as far as the merged label reaches, then starts anew',
      targets: [0, 20, 40, 60, 400, 420].map((x) => ({ x0: x, x1: x + 5 })),
      groups: [
        [0, 1, 2, 3],
        [4, 5],
      ],
    },
    {
      name: 'input order does not matter',
      targets: [
        { x0: 400, x1: 405 },
        { x0: 0, x1: 5 },
      ],
      groups: [[1], [0]],
    },
    {
      name: 'at the right edge a label is pulled left, and merges with what it then meets',
      targets: [
        { x0: 940, x1: 945 },
        { x0: 990, x1: 995 },
      ],
      groups: [[0, 1]],
    },
  ];
  it.each(cases)('$name', ({ targets, groups }) => {
    const placed = layoutLabels(targets, text, width, bounds);
    expect(placed.map((p) => p.members)).toEqual(groups);
    for (const p of placed) {
      expect(p.x).toBeGreaterThanOrEqual(bounds.left);
      expect(p.x + p.width).toBeLessThanOrEqual(bounds.right);
      expect(p.width).toBe(width(p.text));
    }
    for (let i = 1; i < placed.length; i++) {
      expect(placed[i - 1].x + placed[i - 1].width + bounds.gap).toBeLessThanOrEqual(placed[i].x);
    }
  });

  it('never overlaps and keeps every target, for many random rows', () => {
    let seed = 7;
    const rand = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let row = 0; row < 200; row++) {
      const targets = Array.from({ length: 1 + Math.floor(rand() * 60) }, () => {
        const x0 = rand() * 990;
        return { x0, x1: x0 + rand() * 10 };
      });
      const placed = layoutLabels(targets, text, width, bounds);
      expect(placed.flatMap((p) => p.members).sort((a, b) => a - b)).toEqual(targets.map((_, i) => i));
      const sorted = [...placed].sort((a, b) => a.x - b.x);
      for (let i = 1; i < sorted.length; i++) {
        expect(sorted[i - 1].x + sorted[i - 1].width + bounds.gap).toBeLessThanOrEqual(sorted[i].x + 1e-9);
      }
    }
  });
});

describe('binMarks', () => {
  const m = (
    idx: number,
    x: number,
    classification = 'external-mutation-revert',
    time: number | null = idx,
  ): MarkInput => ({
    idx,
    x,
    classification,
    time,
  });
  const cases: Array<{ name: string; marks: MarkInput[]; bins: Array<[number, string, number[]]> }> = [
    {
      name: 'apart: a mark each, where they were',
      marks: [m(0, 10), m(1, 50)],
      bins: [
        [10, 'external-mutation-revert', [0]],
        [50, 'external-mutation-revert', [1]],
      ],
    },
    {
      name: 'same column: one mark at their mean',
      marks: [m(0, 10.2), m(1, 11.8)],
      bins: [[11, 'external-mutation-revert', [0, 1]]],
    },
    {
      name: 'same column, other class: apart',
      marks: [m(0, 10.2), m(1, 10.4, 'intent-change')],
      bins: [
        [10.2, 'external-mutation-revert', [0]],
        [10.4, 'intent-change', [1]],
      ],
    },
    {
      name: 'members chronological',
      marks: [m(5, 10.5, undefined, 9), m(2, 10.1, undefined, 3)],
      bins: [[10.3, 'external-mutation-revert', [2, 5]]],
    },
    {
      name: 'undated together, last',
      marks: [m(3, 0, undefined, null), m(1, 0, undefined, null), m(0, 0.5)],
      bins: [
        [0, 'external-mutation-revert', [1, 3]],
        [0.5, 'external-mutation-revert', [0]],
      ],
    },
  ];
  it.each(cases)('$name', ({ marks, bins }) => {
    expect(binMarks(marks, 2).map((b) => [Math.round(b.x * 100) / 100, b.classification, b.members])).toEqual(
      bins,
    );
  });
});

describe('loopLabel', () => {
  const loop = (count: number, periodSeconds: number, active = false): Loop => ({
    namespace: 'kafka',
    kafkaCluster: 'c',
    brokerId: '1',
    classification: 'external-mutation-revert',
    count,
    firstAt: '2026-11-02T00:00:00Z',
    lastAt: '2026-11-02T00:01:00Z',
    periodSeconds,
    fields: [],
    mutators: [],
    active,
    recommendation: '',
  });
  it.each([
    { loops: [loop(25, 9)], label: '×25 · every 9s' },
    { loops: [loop(9, 9.1, true)], label: '×9 · every 9.1s · active' },
    {
      loops: [loop(25, 8.7), loop(25, 9.2), loop(19, 9, true)],
      label: '3 loops · ×69 · every 8.7s–9.2s · 1 active',
    },
    { loops: [loop(1000, 9), loop(1000, 9)], label: '2 loops · ×2,000 · every 9s' },
  ])('$label', ({ loops, label }) => {
    expect(loopLabel(loops)).toBe(label);
  });
});
