// Typed arrays whose memory goes back to the OS as soon as the scanner is done with them, not at V8's next
// garbage collection. Reading a trace allocates and drops arrays of one entry per slice (growing columns,
// sort keys, permutations); V8 frees a dropped array's memory only at a GC, which it runs once external memory
// has grown ~64 MB past the last one, so on a 100 MB trace they stacked up into the peak resident memory.
// These arrays live in resizable ArrayBuffers: resize(0) gives the pages back at once, and a column grows in
// place without a copy (pages reserved but never written cost no resident memory). Not the small ones: each resizable
// buffer is a mapping of its own, three system calls to make and give back, so a scan of a small trace (24 of them)
// spent more time in the kernel than parsing; up to PLAIN_MAX_BYTES an array is a plain one, left to the GC.

export type NumberArray = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

interface NumberArrayType<T extends NumberArray> {
  new (buffer: ArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** V8's largest resizable ArrayBuffer (4 GiB; 536 M float64 values). */
const MAX_RESERVED_BYTES = 2 ** 32;

function resizable<T extends NumberArray>(type: NumberArrayType<T>, length: number, reservedLength: number): T {
  const bytes = type.BYTES_PER_ELEMENT;
  const buffer = new ArrayBuffer(length * bytes, {
    maxByteLength: Math.min(reservedLength * bytes, MAX_RESERVED_BYTES),
  });
  return new type(buffer); // length-tracking: follows the buffer's resizes
}

/** Arrays up to this size are plain ones (see above): what the GC holds back of them stays small. */
const PLAIN_MAX_BYTES = 64 * 1024;

/** An array of `length` zeros to be given back with release() when the caller is done with it. */
export function scratchArray<T extends NumberArray>(type: NumberArrayType<T>, length: number): T {
  if (length * type.BYTES_PER_ELEMENT <= PLAIN_MAX_BYTES)
    return new type(new ArrayBuffer(length * type.BYTES_PER_ELEMENT));
  return resizable(type, length, length);
}

/** Gives the memory of the resizable arrays of scratchArray and Column back now; they are empty after. Others are left to the GC. */
export function release(...arrays: NumberArray[]): void {
  for (const array of arrays) {
    const buffer = array.buffer;
    if (buffer instanceof ArrayBuffer && buffer.resizable) buffer.resize(0);
  }
}

/** How much more than they hold columns reserve: reservations are address space only, not memory. */
const RESERVE_FACTOR = 16;

/**
 * An append-only column of numbers. It grows in place inside its reservation; past it, one copy into a
 * reservation 16× larger (the old one given back at once).
 */
export class Column<T extends NumberArray> {
  data: T;

  constructor(
    private readonly type: NumberArrayType<T>,
    initialLength = 64,
  ) {
    // a plain array while it is small (doubling, a copy each time), then a reservation (one copy into it)
    this.data =
      initialLength * type.BYTES_PER_ELEMENT <= PLAIN_MAX_BYTES
        ? new type(new ArrayBuffer(initialLength * type.BYTES_PER_ELEMENT))
        : resizable(type, initialLength, initialLength * RESERVE_FACTOR);
  }

  /** Sets data[index], growing the column first when index is past its end. */
  push(index: number, value: number): void {
    if (index >= this.data.length) this.reserve(index + 1);
    this.data[index] = value;
  }

  /**
   * Makes data at least `length` long, and a quarter longer than it was, so pushes stay amortised O(1). Not
   * more: release() writes zeros over every page the column was given, touched or not (V8 clears a shrinking
   * buffer), so slack costs time when it is given back. A plain array (up to PLAIN_MAX_BYTES) doubles instead: it is
   * left to the GC, and a small trace's columns start small (a scan of one allocates a few KiB, not a few hundred).
   */
  reserve(length: number): void {
    const current = this.data.length;
    if (length <= current) return;
    const wanted = Math.max(length, Math.ceil(current * 1.25));
    const bytes = this.type.BYTES_PER_ELEMENT;
    const buffer = this.data.buffer as ArrayBuffer;
    if (wanted * bytes <= buffer.maxByteLength) {
      buffer.resize(wanted * bytes);
      return;
    }
    const doubled = Math.max(length, current * 2);
    if (!buffer.resizable && doubled * bytes <= PLAIN_MAX_BYTES) {
      const grown = new this.type(new ArrayBuffer(doubled * bytes));
      grown.set(this.data);
      this.data = grown;
      return;
    }
    if (length * bytes > MAX_RESERVED_BYTES)
      throw new RangeError(`a column of ${length} values is over the 4 GiB an ArrayBuffer may hold`);
    const grown = resizable(this.type, Math.min(wanted, MAX_RESERVED_BYTES / bytes), wanted * RESERVE_FACTOR);
    grown.set(this.data);
    release(this.data);
    this.data = grown;
  }

  release(): void {
    release(this.data);
  }
}
