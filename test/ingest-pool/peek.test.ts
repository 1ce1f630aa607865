// Looking at a listing's first objects must give back the whole listing, failures included.
import { peek } from '../../lib/ingest-pool/peek';

async function* listing(items: number[], failAfter?: number): AsyncGenerator<number> {
  for (const [i, x] of items.entries()) {
    if (i === failAfter) throw new Error('listing failed');
    yield x;
  }
  if (failAfter === items.length) throw new Error('listing failed');
}

async function drain(it: AsyncIterable<number>): Promise<{ items: number[]; error?: string }> {
  const items: number[] = [];
  try {
    for await (const x of it) items.push(x);
    return { items };
  } catch (e) {
    return { items, error: (e as Error).message };
  }
}

describe('peek', () => {
  it.each([
    ['an empty listing', [], undefined, { head: [], more: false }, { items: [] }],
    ['one object', [1], undefined, { head: [1], more: false }, { items: [1] }],
    ['exactly two objects', [1, 2], undefined, { head: [1, 2], more: true }, { items: [1, 2] }],
    ['many objects', [1, 2, 3, 4], undefined, { head: [1, 2], more: true }, { items: [1, 2, 3, 4] }],
    ['a listing failing first', [1, 2], 0, { head: [], more: false }, { items: [], error: 'listing failed' }],
    [
      'a listing failing after one',
      [1, 2],
      1,
      { head: [1], more: false },
      { items: [1], error: 'listing failed' },
    ],
    [
      'a listing failing later',
      [1, 2, 3],
      2,
      { head: [1, 2], more: true },
      { items: [1, 2], error: 'listing failed' },
    ],
  ])('%s', async (_name, items, failAfter, seen, read) => {
    const p = await peek(listing(items, failAfter), 2);
    expect({ head: p.head, more: p.more }).toEqual(seen);
    expect(await drain(p.all)).toEqual(read);
  });
});
