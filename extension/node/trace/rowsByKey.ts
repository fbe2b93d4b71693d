// A map from float64 keys (correlation and flow ids) to row indices, in typed arrays: open addressing with
// linear probing, NaN marking an empty slot. A Map of 100 k+ numbers puts an entry and a boxed key per row on
// V8's heap, where they survive scavenges and grow the young generation; this holds 12 bytes a slot, given back
// with release().
import { release, scratchArray } from './memory.ts';

export class RowsByKey {
  private keys: Float64Array;
  private rows: Int32Array;
  private mask: number;
  private size = 0;

  constructor(expected = 64) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(expected, 16) * 1.5)); // load ≤ 2/3
    this.keys = scratchArray(Float64Array, slots).fill(NaN);
    this.rows = scratchArray(Int32Array, slots);
    this.mask = slots - 1;
  }

  /** The row stored for `key`, or -1. */
  get(key: number): number {
    const slot = this.slotOf(key);
    return this.keys[slot] === key ? this.rows[slot]! : -1;
  }

  /** Stores `row` (≥ 0) for `key` (not NaN), replacing what was stored. */
  set(key: number, row: number): void {
    let slot = this.slotOf(key);
    if (this.keys[slot] !== key) {
      if ((this.size + 1) * 3 > this.keys.length * 2) {
        this.grow();
        slot = this.slotOf(key);
      }
      this.keys[slot] = key;
      this.size++;
    }
    this.rows[slot] = row;
  }

  release(): void {
    release(this.keys, this.rows);
  }

  /** The slot holding `key`, or the empty one where it would go. */
  private slotOf(key: number): number {
    const hash = Math.imul(key | 0, 0x9e3779b1) ^ Math.imul((key / 4294967296) | 0, 0x85ebca6b);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = this.keys[slot];
      if (held === key || held !== held) return slot;
    }
  }

  private grow(): void {
    const { keys, rows } = this;
    const slots = keys.length * 2;
    this.keys = scratchArray(Float64Array, slots).fill(NaN);
    this.rows = scratchArray(Int32Array, slots);
    this.mask = slots - 1;
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot]!;
      if (key !== key) continue;
      const into = this.slotOf(key);
      this.keys[into] = key;
      this.rows[into] = rows[slot]!;
    }
    release(keys, rows);
  }
}
