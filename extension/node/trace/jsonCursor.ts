// The bytes of a JSON document that arrives in chunks, and its tokens read in place at a byte position: the
// lexing layer of the byte-level trace scanner (eventParser.ts and byteScanner.ts build on JsonCursor). Reading
// past the bytes held throws NEED_MORE: the caller rewinds to the start of its unit and retries with more bytes.
import type { ProblemLog } from './problems.ts';

/** Thrown while lexing when the buffer ends mid-unit; the scanner waits for more bytes. */
export const NEED_MORE = Symbol('need more bytes');

/** A syntax error inside the document, at an absolute byte offset. */
export class SyntaxProblem {
  constructor(
    readonly what: string,
    readonly byte: number,
  ) {}
}

export const enum Ch {
  Tab = 9,
  Lf = 10,
  Cr = 13,
  Space = 32,
  Quote = 34,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  BracketOpen = 91,
  Backslash = 92,
  BracketClose = 93,
  LowerE = 101,
  UpperE = 69,
  Plus = 43,
  BraceOpen = 123,
  BraceClose = 125,
}

const LOWER_T = 't'.charCodeAt(0);
const LOWER_F = 'f'.charCodeAt(0);
const LOWER_N = 'n'.charCodeAt(0);

/** Bytes of a name that its hash samples (see hashedStringEnd). */
const NAME_HASH_SAMPLES = 32;

export const PROBLEM_UTF8 = 'string is not valid UTF-8, shown with U+FFFD';
export const PROBLEM_ESCAPE = 'string has an invalid escape, shown raw';

/**
 * The unread bytes of a document (`buf` from `pos`; `bufOrigin` is buf[0]'s absolute offset) and the lexing
 * of JSON values in them. Positions are indices into `buf`; values come back in fields (`numberValue`,
 * `stringHash`) so the hot paths allocate nothing.
 */
export class JsonCursor {
  protected buf: Uint8Array = new Uint8Array(0);
  /** absolute offset of buf[0] in the document */
  protected bufOrigin = 0;
  protected pos = 0;
  /** Holds the unread tail joined with the next chunk; reused, so a chunk boundary allocates nothing. */
  private scratch = new Uint8Array(0);
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private readonly utf8Lenient = new TextDecoder('utf-8');

  /** `problems`: where strings that do not decode cleanly are counted. */
  constructor(protected readonly problems: ProblemLog) {}

  /** Makes `chunk` the next bytes after the unread ones. */
  protected append(chunk: Uint8Array): void {
    const unread = this.buf.length - this.pos;
    if (unread === 0) {
      this.bufOrigin += this.buf.length;
      this.buf = chunk;
      this.pos = 0;
      return;
    }
    const need = unread + chunk.length;
    if (this.scratch.length < need) {
      const grown = new Uint8Array(Math.max(need, this.scratch.length * 2));
      grown.set(this.buf.subarray(this.pos));
      this.scratch = grown;
    } else if (this.buf.buffer === this.scratch.buffer) {
      this.scratch.copyWithin(
        0,
        this.buf.byteOffset + this.pos - this.scratch.byteOffset,
        this.buf.byteOffset + this.buf.length - this.scratch.byteOffset,
      );
    } else {
      this.scratch.set(this.buf.subarray(this.pos));
    }
    this.scratch.set(chunk, unread);
    this.bufOrigin += this.pos;
    this.buf = this.scratch.subarray(0, need);
    this.pos = 0;
  }

  /** Copies the bytes still unread out of `chunk`, whose memory the caller reuses for the next chunk. */
  protected detachFrom(chunk: Uint8Array): void {
    if (this.buf.buffer !== chunk.buffer) return;
    const unread = this.buf.length - this.pos;
    if (unread > this.scratch.length) this.scratch = new Uint8Array(Math.max(unread, this.scratch.length * 2));
    this.scratch.set(this.buf.subarray(this.pos));
    this.bufOrigin += this.pos;
    this.buf = this.scratch.subarray(0, unread);
    this.pos = 0;
  }

  protected syntax(what: string, p: number): SyntaxProblem {
    return new SyntaxProblem(what, this.bufOrigin + p);
  }

  protected skipWs(p: number): number {
    const buf = this.buf;
    while (p < buf.length) {
      const b = buf[p];
      if (b !== Ch.Space && b !== Ch.Lf && b !== Ch.Cr && b !== Ch.Tab) break;
      p++;
    }
    return p;
  }

  protected expect(p: number, byte: number, what: string): number {
    if (p >= this.buf.length) throw NEED_MORE;
    if (this.buf[p] !== byte) throw this.syntax(`expected ${what}, found ${describeByte(this.buf[p]!)}`, p);
    return p + 1;
  }

  /** p at an opening quote; returns the index just past the closing quote. */
  protected stringEnd(p: number): number {
    const buf = this.buf;
    const len = buf.length;
    let q = p + 1;
    while (q < len) {
      const b = buf[q];
      if (b === Ch.Quote) return q + 1;
      q += b === Ch.Backslash ? 2 : 1;
    }
    throw NEED_MORE;
  }

  /**
   * Like stringEnd for a name: also leaves a hash of the raw body bytes in `stringHash`. The end is found by the
   * engine's indexOf; the hash takes the length, up to 32 evenly spaced bytes and the last one, not every byte
   * of a 200-byte kernel name (the name table compares whole names, so a collision costs only a probe).
   */
  protected stringHash = 0;
  protected hashedStringEnd(p: number): number {
    const buf = this.buf;
    const body = p + 1;
    const quote = buf.indexOf(Ch.Quote, body);
    if (quote < 0) throw NEED_MORE;
    if (buf[quote - 1] === Ch.Backslash) return this.hashedEscapedStringEnd(p); // that quote may be escaped
    const length = quote - body;
    const samples = Math.min(length, NAME_HASH_SAMPLES);
    const spacing = length / samples;
    let hash = Math.imul(0x811c9dc5 ^ length, 0x01000193);
    for (let k = 0; k < samples; k++) hash = Math.imul(hash ^ buf[body + Math.floor(k * spacing)]!, 0x01000193);
    this.stringHash = Math.imul(hash ^ buf[quote - 1]!, 0x01000193);
    return quote + 1;
  }

  /** hashedStringEnd where a backslash precedes the first quote: walks the escapes, hashing every byte (FNV-1a). */
  private hashedEscapedStringEnd(p: number): number {
    const buf = this.buf;
    const len = buf.length;
    let hash = 0x811c9dc5;
    let q = p + 1;
    while (q < len) {
      const b = buf[q]!;
      if (b === Ch.Quote) {
        this.stringHash = hash;
        return q + 1;
      }
      hash = Math.imul(hash ^ b, 0x01000193);
      if (b === Ch.Backslash) {
        if (q + 1 >= len) break;
        hash = Math.imul(hash ^ buf[q + 1]!, 0x01000193);
        q += 2;
      } else q++;
    }
    throw NEED_MORE;
  }

  /** Skips any JSON value without recursion (deeply nested args cannot overflow the stack). */
  protected skipValue(p: number): number {
    const buf = this.buf;
    if (p >= buf.length) throw NEED_MORE;
    const first = buf[p];
    if (first === Ch.Quote) return this.stringEnd(p);
    if (first !== Ch.BraceOpen && first !== Ch.BracketOpen) return this.scalarEnd(p);
    let depth = 0;
    while (p < buf.length) {
      const b = buf[p];
      if (b === Ch.Quote) {
        p = this.stringEnd(p);
        continue;
      }
      if (b === Ch.BraceOpen || b === Ch.BracketOpen) depth++;
      else if (b === Ch.BraceClose || b === Ch.BracketClose) {
        if (--depth === 0) return p + 1;
      }
      p++;
    }
    throw NEED_MORE;
  }

  /** End of a number or literal (true/false/null) at p; anything else there is a syntax error. */
  private scalarEnd(p: number): number {
    const buf = this.buf;
    const start = p;
    const first = buf[p]!;
    if (
      p < buf.length &&
      !(
        first === Ch.Minus ||
        (first >= Ch.Zero && first <= Ch.Nine) ||
        first === LOWER_T ||
        first === LOWER_F ||
        first === LOWER_N
      )
    ) {
      throw this.syntax(`unexpected ${describeByte(first)}`, p);
    }
    while (p < buf.length) {
      const b = buf[p];
      if (
        b === Ch.Comma ||
        b === Ch.BraceClose ||
        b === Ch.BracketClose ||
        b === Ch.Space ||
        b === Ch.Lf ||
        b === Ch.Cr ||
        b === Ch.Tab
      ) {
        if (p === start) throw this.syntax(`expected a value, found ${describeByte(b)}`, p);
        return p;
      }
      if (b === Ch.Quote || b === Ch.BraceOpen || b === Ch.BracketOpen || b === Ch.Colon)
        throw this.syntax(`unexpected ${describeByte(b)}`, p);
      p++;
    }
    throw NEED_MORE;
  }

  /** Parses a JSON number at p; returns NaN in `numberValue` (and the value's end) when it is not a number. */
  protected numberValue = NaN;
  private parseNumber(p: number): number {
    const buf = this.buf;
    const start = p;
    let negative = false;
    if (buf[p] === Ch.Minus) {
      negative = true;
      p++;
    }
    let intPart = 0;
    let digits = 0;
    while (p < buf.length && buf[p]! >= Ch.Zero && buf[p]! <= Ch.Nine) {
      intPart = intPart * 10 + (buf[p]! - Ch.Zero);
      p++;
      digits++;
    }
    let value = intPart;
    if (p < buf.length && buf[p] === Ch.Dot) {
      p++;
      let frac = 0;
      let scale = 1;
      while (p < buf.length && buf[p]! >= Ch.Zero && buf[p]! <= Ch.Nine) {
        if (scale < 1e15) {
          frac = frac * 10 + (buf[p]! - Ch.Zero);
          scale *= 10;
        }
        p++;
      }
      value += frac / scale;
    }
    if (p < buf.length && (buf[p] === Ch.LowerE || buf[p] === Ch.UpperE)) {
      p++;
      if (buf[p] === Ch.Plus || buf[p] === Ch.Minus) p++;
      while (p < buf.length && buf[p]! >= Ch.Zero && buf[p]! <= Ch.Nine) p++;
      value = Number(latin1(buf, start, p)); // rare: let the engine apply the exponent
    } else if (digits > 15) {
      value = Number(latin1(buf, start, p));
    } else if (negative) {
      value = -value;
    }
    if (p < buf.length && digits > 0) {
      // Common case: the number is followed by a delimiter, so scalarEnd(start) would return p.
      const b = buf[p];
      if (
        b === Ch.Comma ||
        b === Ch.BraceClose ||
        b === Ch.BracketClose ||
        b === Ch.Space ||
        b === Ch.Lf ||
        b === Ch.Cr ||
        b === Ch.Tab
      ) {
        this.numberValue = value;
        return p;
      }
    }
    const end = this.scalarEnd(start);
    if (end !== p || digits === 0) {
      this.numberValue = NaN;
      return end;
    }
    this.numberValue = value;
    return end;
  }

  /** parseNumber when the number ends at a delimiter (no syntax error possible); -1 otherwise. */
  protected parseNumberFast(p: number): number {
    const buf = this.buf;
    let q = p;
    if (buf[q] === Ch.Minus) q++;
    let digits = 0;
    while (q < buf.length && buf[q]! >= Ch.Zero && buf[q]! <= Ch.Nine) {
      q++;
      digits++;
    }
    if (q < buf.length && buf[q] === Ch.Dot) {
      q++;
      while (q < buf.length && buf[q]! >= Ch.Zero && buf[q]! <= Ch.Nine) q++;
    }
    if (q < buf.length && (buf[q] === Ch.LowerE || buf[q] === Ch.UpperE)) {
      q++;
      if (buf[q] === Ch.Plus || buf[q] === Ch.Minus) q++;
      while (q < buf.length && buf[q]! >= Ch.Zero && buf[q]! <= Ch.Nine) q++;
    }
    if (q >= buf.length) throw NEED_MORE;
    const b = buf[q];
    if (
      digits === 0 ||
      !(
        b === Ch.Comma ||
        b === Ch.BraceClose ||
        b === Ch.BracketClose ||
        b === Ch.Space ||
        b === Ch.Lf ||
        b === Ch.Cr ||
        b === Ch.Tab
      )
    )
      return -1;
    return this.parseNumber(p);
  }

  protected parseNumberOrSkip(p: number): number {
    const first = this.buf[p]!;
    if (first === Ch.Minus || (first >= Ch.Zero && first <= Ch.Nine)) return this.parseNumber(p);
    this.numberValue = NaN;
    return this.skipValue(p);
  }

  /** Decodes a JSON string body (between the quotes). Invalid UTF-8 becomes U+FFFD with a warning. */
  protected decode(start: number, end: number, byte = this.bufOrigin + start): string {
    const buf = this.buf;
    let ascii = true;
    let escaped = false;
    for (let i = start; i < end; i++) {
      const b = buf[i]!;
      if (b >= 0x80) ascii = false;
      else if (b === Ch.Backslash) escaped = true;
    }
    let text: string;
    if (ascii) text = latin1(buf, start, end);
    else {
      try {
        text = this.utf8.decode(buf.subarray(start, end));
      } catch {
        this.problems.add(PROBLEM_UTF8, byte);
        text = this.utf8Lenient.decode(buf.subarray(start, end));
      }
    }
    if (!escaped) return text;
    try {
      return JSON.parse(`"${text}"`) as string;
    } catch {
      this.problems.add(PROBLEM_ESCAPE, byte);
      return text;
    }
  }

  /** Reads up to three numbers of a [x, y, z] array into values[at..at+2]. */
  protected readTriple(p: number, values: Float64Array, at: number): number {
    const end = this.skipValue(p);
    let q = this.skipWs(p + 1);
    for (let i = 0; i < 3 && q < end - 1; i++) {
      q = this.parseNumberOrSkip(q);
      values[at + i] = this.numberValue;
      q = this.skipWs(q);
      if (this.buf[q] !== Ch.Comma) break;
      q = this.skipWs(q + 1);
    }
    return end;
  }
}

/** Key indices grouped by key length, for matchKeyByLength. */
export function byLength(keys: Uint8Array[]): number[][] {
  const table: number[][] = [];
  keys.forEach((key, k) => {
    while (table.length <= key.length) table.push([]);
    table[key.length]!.push(k);
  });
  return table;
}

export function matchKeyByLength(
  buf: Uint8Array,
  start: number,
  end: number,
  keys: Uint8Array[],
  table: number[][],
): number {
  const length = end - start;
  if (length >= table.length) return -1;
  const candidates = table[length]!;
  for (let c = 0; c < candidates.length; c++)
    if (bytesEqual(buf, start, end, keys[candidates[c]!]!)) return candidates[c]!;
  return -1;
}

export function matchKey(buf: Uint8Array, start: number, end: number, keys: Uint8Array[]): number {
  for (let k = 0; k < keys.length; k++) if (bytesEqual(buf, start, end, keys[k]!)) return k;
  return -1;
}

export function bytesEqual(buf: Uint8Array, start: number, end: number, expected: Uint8Array): boolean {
  if (end - start !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (buf[start + i] !== expected[i]) return false;
  return true;
}

export function latin1(buf: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i += 8192) text += String.fromCharCode(...buf.subarray(i, Math.min(end, i + 8192)));
  return text;
}

export function describeByte(b: number): string {
  return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}
