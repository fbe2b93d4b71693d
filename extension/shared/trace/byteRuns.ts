// Typed arrays as one run of bytes and back: what a deflated piece carries (rowsWire.ts DeflatedRows, argsWire.ts
// DeflatedKernelArgs), deflated whole, with each array's byte length to cut it apart again.

/** The arrays' bytes one after the other, and each one's byte length. */
export function joinBytes(arrays: ArrayBufferView[]): { bytes: Uint8Array; lengths: number[] } {
  const lengths = arrays.map((a) => a.byteLength);
  const bytes = new Uint8Array(lengths.reduce((a, b) => a + b, 0));
  let at = 0;
  for (const a of arrays) {
    bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at += a.byteLength;
  }
  return { bytes, lengths };
}

/**
 * The pieces of `bytes` joinBytes() made, each copied out (its own buffer) as the returned function is called;
 * null when the lengths do not add up to the bytes or are not `count`.
 */
export function cutBytes(bytes: Uint8Array, lengths: number[], count: number): (() => Uint8Array) | null {
  if (lengths.length !== count || lengths.reduce((a, b) => a + b, 0) !== bytes.length) return null;
  let at = 0;
  let k = 0;
  return () => bytes.slice(at, (at += lengths[k++]!));
}
