// Header templates: the bytes of a recent slice's header but for its name, ts and dur, in kineto's key order
// (ph, cat, name, pid, tid, ts, dur, args). A later slice whose bytes around those three are the same has the same
// keys, cat and track, so it is read without walking its keys (most of a kineto file's slices repeat one of a few
// headers); any other byte makes the reader walk them. The skim (node/trace/skim.ts) compares from after "ph"'s
// value, the full read (eventParser.ts) from the event's opening brace; each keeps what the bytes mean in `values`.

/** Templates kept: a kineto file interleaves several kinds of slice (launches and kernels on a few streams, ops on a few threads). */
const TEMPLATES = 16;

/**
 * Bytes to compare with the file's, also as 8-byte words read as doubles (compared 8 bytes at a time, then the
 * tail): equal doubles are equal bytes but for ±0, which needs a word of NUL bytes (none is kept), and NaN, which
 * never equals itself (a mismatch: the header is walked instead).
 */
export interface Bytes {
  bytes: Uint8Array;
  words: Float64Array;
}

export interface HeaderTemplate<V> {
  /** to the name's first byte (the cat's value among them) */
  lead: Bytes;
  /** from the name's closing quote to ts's first byte (pid's and tid's values among them) */
  mid: Bytes;
  /** from after ts to dur's first byte */
  afterTs: Bytes;
  /** from after dur to the args' first byte */
  afterDur: Bytes;
  /** what the header's bytes say: its cat, pid and tid as the reader keeps them */
  values: V;
}

/** The bytes [from, to) as Bytes; null where a word of them is ±0 or NaN. */
function bytesOf(buf: Uint8Array, from: number, to: number): Bytes | null {
  const bytes = buf.slice(from, to);
  const view = new DataView(bytes.buffer);
  const words = new Float64Array(bytes.length >> 3);
  for (let w = 0; w < words.length; w++) words[w] = view.getFloat64(w * 8, true);
  return words.every((word) => word !== 0 && word === word) ? { bytes, words } : null;
}

/** Whether the file's bytes (buf, and `view` over the same memory) hold `expected` from `at` (false where they end before it). */
export function sameBytes(buf: Uint8Array, view: DataView, at: number, expected: Bytes): boolean {
  const bytes = expected.bytes;
  const words = expected.words;
  if (at + bytes.length > buf.length) return false;
  for (let w = 0; w < words.length; w++) if (view.getFloat64(at + w * 8, true) !== words[w]) return false;
  for (let i = words.length * 8; i < bytes.length; i++) if (buf[at + i] !== bytes[i]) return false;
  return true;
}

/** The templates of one skim: the last one matched is tried first; a new one takes the oldest's place. */
export class HeaderTemplates<V> {
  private readonly list: HeaderTemplate<V>[] = [];
  private replaced = 0;
  private last = 0;
  private view: DataView = new DataView(new ArrayBuffer(0));
  /** the array `view` is over (an identity check per header: a typed array's buffer is a slow getter) */
  private viewOf: Uint8Array = new Uint8Array(0);

  get count(): number {
    return this.list.length;
  }

  /** The k-th to try. */
  inTurn(k: number): HeaderTemplate<V> {
    return this.list[(this.last + k) % this.list.length]!;
  }

  /** The k-th to try matched: it comes first next time. */
  matched(k: number): void {
    this.last = (this.last + k) % this.list.length;
  }

  /** A DataView over buf's memory, for sameBytes() (made again only when buf is another array). */
  wordsOf(buf: Uint8Array): DataView {
    if (buf !== this.viewOf) {
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
      this.viewOf = buf;
    }
    return this.view;
  }

  /**
   * Adds the header whose parts lie at `at` in buf: [the lead's start, name's start, name's closing quote, ts's
   * start, ts's end, dur's start, dur's end, args' start], read with `values`.
   */
  add(buf: Uint8Array, at: number[], values: V): void {
    const [lead, mid, afterTs, afterDur] = [0, 2, 4, 6].map((i) => bytesOf(buf, at[i]!, at[i + 1]!));
    if (!lead || !mid || !afterTs || !afterDur) return;
    const template: HeaderTemplate<V> = { lead, mid, afterTs, afterDur, values };
    if (this.list.length < TEMPLATES) this.list.push(template);
    else this.list[this.replaced++ % TEMPLATES] = template;
  }
}
