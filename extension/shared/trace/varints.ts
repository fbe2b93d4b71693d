// Integers as variable-length bytes (LEB128: 7 bits a byte, low bits first) for what the host posts to the webview
// (rowsWire.ts, argsWire.ts): the small integers a trace is mostly made of take a byte or two instead of eight.

/** Past this a zigzag varint's arithmetic would lose integers (2^53): callers send such values plain. */
export const MAX_MAGNITUDE = 2 ** 50;

export const zigzag = (value: number): number => (value >= 0 ? value * 2 : -value * 2 - 1);
export const unzigzag = (code: number): number => (code % 2 === 0 ? code / 2 : -(code + 1) / 2);

/** Unsigned integers below 2^53, 7 bits a byte, low bits first (LEB128), into a buffer that grows. */
export class VarintWriter {
  private buffer: Uint8Array;
  private at = 0;

  constructor(values: number) {
    this.buffer = new Uint8Array(Math.max(16, values * 2));
  }

  unsigned(value: number): void {
    if (this.at + 8 > this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    let rest = value;
    // above 2^31 by division (bit operators cut to 32 bits), below by bits: most values are small
    while (rest > 0x7fffffff) {
      this.buffer[this.at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    while (rest >= 0x80) {
      this.buffer[this.at++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.buffer[this.at++] = rest;
  }

  signed(value: number): void {
    this.unsigned(zigzag(value));
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.at);
  }
}

export class VarintReader {
  private at = 0;

  constructor(private readonly buffer: Uint8Array) {}

  unsigned(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.buffer.length) throw new Error('packed rows end early');
      const byte = this.buffer[this.at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  signed(): number {
    return unzigzag(this.unsigned());
  }
}
