/**
 * A cache of the last few entries, keyed by object identity. The suites use it for what a case's `stats`
 * and `check` (or a case's two sides) share — the same case looked up a few times in a row — instead of a
 * `WeakMap` keyed by short-lived cases: every case then cost WeakMap insertions whose entries (ephemerons) the
 * garbage collector must process specially until a collection finds their keys dead, while the cache needs
 * only the last few. (Measured with the other suite-throughput changes, docs/benchmarks.md.)
 */
export class Recent<K, V> {
  private readonly keys: (K | undefined)[];
  private readonly values: (V | undefined)[];
  private next = 0;

  constructor(readonly size = 4) {
    this.keys = new Array<K | undefined>(size).fill(undefined);
    this.values = new Array<V | undefined>(size).fill(undefined);
  }

  /** The value stored for this very key, if it is still among the last `size` stored. */
  get(k: K): V | undefined {
    const i = this.keys.indexOf(k);
    return i < 0 ? undefined : this.values[i];
  }

  /** Store a value (replacing the oldest entry, or this key's own). */
  set(k: K, v: V): void {
    const i = this.keys.indexOf(k);
    if (i >= 0) { this.values[i] = v; return; }
    this.keys[this.next] = k;
    this.values[this.next] = v;
    this.next = (this.next + 1) % this.size;
  }
}
