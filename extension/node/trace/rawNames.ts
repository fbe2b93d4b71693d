// The byte scanner's name interning (byteScanner.ts): a name seen before is found by its raw bytes, without
// decoding it again.

/**
 * Name ids by the raw bytes of the name (between the quotes): open addressing over typed arrays, the bytes
 * copied into one arena (never pinning a chunk). A Map keyed by the 32-bit hash boxed most keys as heap numbers.
 */
export class RawNameTable {
  // small at first, each doubling as it fills: a small trace's scan allocates little (the fuzz scans 10^5 of them)
  private slots = new Int32Array(64).fill(-1);
  private mask = 63;
  private count = 0;
  private hashOf = new Int32Array(32);
  private idOf = new Uint32Array(32);
  private startOf = new Uint32Array(32);
  private lengthOf = new Uint32Array(32);
  private arena = new Uint8Array(4 * 1024);
  private arenaUsed = 0;

  /** The id stored for these bytes, or -1. */
  find(buf: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    const arena = this.arena;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const e = this.slots[slot]!;
      if (e < 0) return -1;
      if (this.hashOf[e] !== hash || this.lengthOf[e] !== length) continue;
      const at = this.startOf[e]!;
      let i = 0;
      while (i < length && arena[at + i] === buf[start + i]) i++;
      if (i === length) return this.idOf[e]!;
    }
  }

  add(buf: Uint8Array, start: number, end: number, hash: number, id: number): void {
    const length = end - start;
    if (this.count === this.hashOf.length) {
      const grow = <T extends Int32Array | Uint32Array>(a: T): T => {
        const g = new (a.constructor as new (n: number) => T)(a.length * 2);
        g.set(a);
        return g;
      };
      this.hashOf = grow(this.hashOf);
      this.idOf = grow(this.idOf);
      this.startOf = grow(this.startOf);
      this.lengthOf = grow(this.lengthOf);
    }
    if (this.arenaUsed + length > this.arena.length) {
      const g = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + length));
      g.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = g;
    }
    const e = this.count++;
    this.arena.set(buf.subarray(start, end), this.arenaUsed);
    this.hashOf[e] = hash;
    this.idOf[e] = id;
    this.startOf[e] = this.arenaUsed;
    this.lengthOf[e] = length;
    this.arenaUsed += length;
    if (this.count * 2 > this.slots.length) this.rehash();
    else this.place(e);
  }

  private place(e: number): void {
    let slot = this.hashOf[e]! & this.mask;
    while (this.slots[slot]! >= 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = e;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    for (let e = 0; e < this.count; e++) this.place(e);
  }
}
