// Work that depends on a pair of shared objects only (a restart loop's last-applied and
// desired pods): done once per pair, forgotten with either object.
export class PairMemo<T> {
  private readonly byFirst = new WeakMap<object, WeakMap<object, T>>();

  /** The value for (a, b), made by `make` the first time the pair is asked for. */
  get(a: object, b: object, make: () => T): T {
    let bySecond = this.byFirst.get(a);
    if (!bySecond) this.byFirst.set(a, (bySecond = new WeakMap()));
    let v = bySecond.get(b);
    if (v === undefined) bySecond.set(b, (v = make()));
    return v;
  }
}
