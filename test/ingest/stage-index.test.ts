// The de-duplicator's index of stages seen per auditID: UUIDs packed into a typed-array hash
// table, anything else in a Map. It must answer exactly as a Map from the ID string would.
import fc from 'fast-check';
import { StageIndex } from '../../lib/ingest/stage-index';

const uuid = (n: number, variant = 0): string => {
  const hex = (n >>> 0).toString(16).padStart(8, '0');
  const v = variant.toString(16).padStart(4, '0');
  return `${hex}-${v}-4${hex.slice(0, 3)}-a${hex.slice(3, 6)}-${hex}${v}`;
};

describe('StageIndex', () => {
  it.each<[string, string[]]>([
    ['UUIDs', [uuid(1), uuid(2), uuid(0xffffffff)]],
    ['IDs that differ in one word only', [uuid(7, 1), uuid(7, 2), uuid(7, 3)]],
    [
      'other IDs (GKE insertIds, upper case, empty)',
      ['1abc2de3f', uuid(5).toUpperCase(), '', 'x'.repeat(36)],
    ],
  ])('keeps the stage bits of %s apart', (_name, ids) => {
    const idx = new StageIndex();
    ids.forEach((id, i) => idx.set(id, i + 1));
    ids.forEach((id, i) => expect(idx.get(id)).toBe(i + 1));
    expect(idx.get(uuid(123456))).toBe(0);
    expect(idx.size).toBe(ids.length);
  });

  it('updates in place and answers like a Map through growth, for any IDs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.uuid(), fc.string()), fc.integer({ min: 1, max: 15 })), {
          maxLength: 3000,
        }),
        (ops) => {
          const idx = new StageIndex();
          const ref = new Map<string, number>();
          for (const [id, bits] of ops) {
            const merged = (ref.get(id) ?? 0) | bits;
            ref.set(id, merged);
            idx.set(id, (idx.get(id) ?? 0) | bits);
          }
          for (const [id, bits] of ref) expect(idx.get(id)).toBe(bits);
          expect(idx.size).toBe(ref.size);
        },
      ),
      { seed: 20261130, numRuns: 40 },
    );
  });

  it('holds 200,000 UUIDs exactly', () => {
    const idx = new StageIndex();
    for (let i = 0; i < 200_000; i++) idx.set(uuid(i * 2654435761), (i % 15) + 1);
    for (let i = 0; i < 200_000; i += 997) expect(idx.get(uuid(i * 2654435761))).toBe((i % 15) + 1);
    expect(idx.get(uuid(1, 9))).toBe(0);
  });
});
