// A binary min-heap keyed by time, stable for equal times (insertion order): the noise
// stream's backlog of stages and follow-up requests.
export class Heap<T> {
  private items: Array<{ at: number; seq: number; v: T }> = [];
  private seq = 0;
  get size(): number {
    return this.items.length;
  }
  peekAt(): number {
    return this.items.length > 0 ? this.items[0].at : Infinity;
  }
  push(at: number, v: T): void {
    const it = { at, seq: this.seq++, v };
    const a = this.items;
    a.push(it);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(a[p], a[i])) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): T | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m])) m = l;
        if (r < a.length && this.less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top.v;
  }
  private less(x: { at: number; seq: number }, y: { at: number; seq: number }): boolean {
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }
}
