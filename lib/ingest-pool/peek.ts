// The first items of an async iterable, looked at before deciding how to read it, and the
// whole iterable again. A listing that fails while being looked at fails again, in the same
// place, when the returned iterable is read: whoever reads it records the failure as always.
export async function peek<T>(
  items: AsyncIterable<T>,
  n: number,
): Promise<{ head: T[]; more: boolean; all: AsyncIterable<T> }> {
  const it = items[Symbol.asyncIterator]();
  const head: T[] = [];
  let failure: { error: unknown } | null = null;
  let ended = false;
  while (head.length < n) {
    try {
      const next = await it.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
    } catch (error) {
      failure = { error };
      break;
    }
  }
  async function* all(): AsyncGenerator<T> {
    yield* head;
    if (failure) throw failure.error;
    if (ended) return;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { head, more: !ended && failure === null, all: all() };
}
