// A first pass over a trace file that reads only what a big trace's first frame needs before the file is parsed:
// each event's time, its track, and the kernels, launches and ProfilerStep spans that say where the steps are.
// It finds events by the engine's search for their `"ph":` key and reads the keys kineto writes before "args" (ph,
// cat, name, pid, tid, ts, dur), skipping the args (most of the bytes), a header like a recent one's but for its
// name, ts and dur read by comparing its bytes (headerTemplates.ts); the byte scanner (byteScanner.ts) then
// parses only the events around the first view, from the byte ranges this pass records (skimRead.ts). Files
// written otherwise (a slice or flow whose "ph" is not its first key, "ts" or "dur" after "args" or not a number,
// phases other than X, M, s, f, i, a cut file) make it give up: end() returns null and the file is read whole.
// What it keeps of the events is skimRecord.ts's. Not seen by the skim: a host event named like a CPU kernel
// (cpp_fused) on a GPU stream's track, which the full read would count among the kernels that find steps (kineto
// puts none there).
import { eventKeyOf, EventKey, HEADER_KEYS, matchCat } from './eventParser.ts';
import { HeaderTemplates, sameBytes, type HeaderTemplate } from './headerTemplates.ts';
import { bytesEqual, Ch, JsonCursor, NEED_MORE } from './jsonCursor.ts';
import { SliceKind } from '../../shared/trace/model.ts';
import { ProblemLog } from './problems.ts';
import { RawNameTable } from './rawNames.ts';
import type { Skim, SkimmedPart, SkimPart } from './skimParts.ts';
import { SkimRecord } from './skimRecord.ts';
import { COMPILED_REGION } from './buildModel.ts';
import { CACHE_LOOKUP } from '../../shared/trace/timelineMarks.ts';
import { Cat, isDeviceCat } from '../../shared/trace/sliceKinds.ts';

const PH_KEY = new TextEncoder().encode('"ph":');
const LOWER_H = 'h'.charCodeAt(0);
const LOWER_P = 'p'.charCodeAt(0);
const PROFILER_STEP = new TextEncoder().encode('ProfilerStep#');
const GRAPH_LAUNCH = new TextEncoder().encode('cudaGraphLaunch');
const COMPILED_REGION_BYTES = new TextEncoder().encode(COMPILED_REGION);
const CACHE_LOOKUP_BYTES = new TextEncoder().encode(CACHE_LOOKUP);
const CORRELATION_KEY = new TextEncoder().encode('"correlation":');
const PH_COMPLETE = 'X'.charCodeAt(0);
const PH_METADATA = 'M'.charCodeAt(0);
const PH_FLOW_START = 's'.charCodeAt(0);
const PH_FLOW_END = 'f'.charCodeAt(0);
const PH_INSTANT = 'i'.charCodeAt(0);
/** As the byte scanner: timestamps beyond this (µs) are garbage, which the skim leaves to it. */
const MAX_ABS_TS_US = 1e17;
/** What a skim's header template says (headerTemplates.ts). */
interface SkimHeader {
  cat: Cat;
  pid: number;
  tid: number;
  pidText: string | null;
  tidText: string | null;
}

/** Thrown inside the skim where the file is not as kineto writes it. */
const GIVE_UP = Symbol('not a kineto-shaped trace');

/** Skims a trace: push() the file's bytes in order, then end(). */
export class TraceSkim extends JsonCursor {
  private failed = false;
  /** the part's end was reached */
  private done = false;
  /** the last push ended inside an event: at the end, the file is cut there */
  private pending = false;
  private retryAt = 0;
  private started = false;
  private bareArray = false;
  private readonly nameIds = new RawNameTable();
  private readonly record: SkimRecord;
  private readonly templates = new HeaderTemplates<SkimHeader>();
  /** where the header just read (by sameHeader(), or event()'s walk for remember()) has its values */
  private readonly header = {
    nameStart: -1,
    nameEnd: -1,
    ts: NaN,
    tsStart: -1,
    tsEnd: -1,
    dur: NaN,
    durStart: -1,
    durEnd: -1,
    args: -1,
  };

  /**
   * `part`: skim only the events that start in [from, to) (a file's half, the other skimmed by another thread;
   * `from` > 0 must be an event's opening brace inside traceEvents, `bareArray` then says what the document is).
   */
  constructor(private readonly part: SkimPart = { from: 0, to: Infinity, bareArray: false }) {
    super(new ProblemLog());
    this.record = new SkimRecord(part.from);
    if (part.from > 0) {
      this.started = true;
      this.bareArray = part.bareArray;
      this.bufOrigin = part.from;
    }
  }

  /** Feeds the next chunk of the file. */
  push(chunk: Uint8Array): void {
    if (this.failed || this.done || chunk.length === 0) return;
    this.append(chunk);
    if (this.buf.length < this.retryAt) return;
    this.run();
  }

  /** push() for a chunk whose memory the caller reuses for the next one. */
  pushReusable(chunk: Uint8Array): void {
    this.push(chunk);
    this.detachFrom(chunk);
  }

  /** What the file holds, or null where it is not shaped as the skim reads it (then it is read whole). */
  end(): Skim | null {
    if (this.failed || this.pending || this.record.events === 0) return null;
    return this.record.end(this.bareArray);
  }

  /** What this part holds, copied out for the thread that skims the part before it (appendPart()); null where it gave up. */
  exportPart(): SkimmedPart | null {
    return this.failed || this.pending ? null : this.record.exportPart();
  }

  /** Appends the part after this one (skimmed from where this one's `to` is): as if this skim had read it. */
  appendPart(next: SkimmedPart): void {
    this.record.appendPart(next);
  }

  /**
   * Where the next `"ph":` key starts from `from`, or -1: the engine's byte search for its 'h' (rarer in JSON than
   * '"', which the search for the whole key stops at), each checked. 0.3 s a 500 MB trace against 0.45 s.
   */
  private findPh(from: number): number {
    const buf = this.buf;
    for (let h = buf.indexOf(LOWER_H, from + 2); h >= 0; h = buf.indexOf(LOWER_H, h + 1)) {
      if (buf[h - 1] === LOWER_P && buf[h - 2] === Ch.Quote && buf[h + 1] === Ch.Quote && buf[h + 2] === Ch.Colon)
        return h - 2;
      if (h + 2 >= buf.length) break;
    }
    return -1;
  }

  private view: Buffer = Buffer.alloc(0);
  /** the array `view` is over (checked by identity: a typed array's buffer is a slow getter) */
  private viewOf: Uint8Array = new Uint8Array(0);
  /** Where `needle` is next in the bytes from `from`, or -1: the engine's search over a Buffer view of them. */
  private find(needle: Uint8Array, from: number): number {
    const buf = this.buf;
    if (buf !== this.viewOf) {
      this.view = Buffer.from(buf.buffer, buf.byteOffset, buf.length);
      this.viewOf = buf;
    }
    return this.view.indexOf(needle, from);
  }

  private run(): void {
    try {
      if (!this.started && !this.readStart()) return;
      for (;;) {
        const anchor = this.findPh(this.pos);
        if (anchor >= 0 && this.bufOrigin + anchor >= this.part.to) {
          // the next part's
          this.done = true;
          this.pending = false;
          return;
        }
        if (anchor < 0) {
          // keep what a key cut by the chunk's end starts with, and the brace before it
          this.pos = Math.max(this.pos, this.buf.length - PH_KEY.length - 64);
          this.pending = false;
          return;
        }
        try {
          this.pos = this.event(anchor);
          this.retryAt = 0;
        } catch (thrown) {
          if (thrown !== NEED_MORE) throw thrown;
          this.pending = true;
          this.retryAt = (this.buf.length - this.pos) * 2;
          return;
        }
      }
    } catch (thrown) {
      if (thrown !== GIVE_UP) throw thrown;
      this.failed = true;
      this.buf = new Uint8Array(0);
      this.pos = 0;
    }
  }

  /** Reads the document's first byte ('{' or '['; a byte order mark before it); false until it has arrived. */
  private readStart(): boolean {
    const buf = this.buf;
    if (buf.length < 3) return false;
    const p = this.skipWs(buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0);
    if (p >= buf.length) return false;
    if (buf[p] !== Ch.BraceOpen && buf[p] !== Ch.BracketOpen) throw GIVE_UP;
    this.bareArray = buf[p] === Ch.BracketOpen;
    this.started = true;
    this.pos = p + 1;
    return true;
  }

  /**
   * Reads the event whose "ph" key is at `anchor`, up to its first object or array value (its args) or its end;
   * returns where the search for the next one starts (never past the next event's opening brace).
   */
  private event(anchor: number): number {
    const buf = this.buf;
    let b = anchor - 1;
    while (b >= this.pos && (buf[b] === Ch.Space || buf[b] === Ch.Lf || buf[b] === Ch.Cr || buf[b] === Ch.Tab)) b--;
    const startKnown = b >= this.pos && buf[b] === Ch.BraceOpen;
    let p = this.skipWs(anchor + PH_KEY.length);
    if (p >= buf.length) throw NEED_MORE;
    if (buf[p] !== Ch.Quote) throw GIVE_UP;
    const phEnd = this.stringEnd(p);
    if (phEnd - p !== 3) throw GIVE_UP;
    const ph = buf[p + 1];
    let cat = Cat.Unknown;
    let nameStart = -1;
    let nameEnd = -1;
    let pid = NaN;
    let tid = NaN;
    let pidText: string | null = null;
    let tidText: string | null = null;
    let ts = NaN;
    let dur = NaN;
    let args = -1;
    p = phEnd;
    const known = ph === PH_COMPLETE ? this.sameHeader(phEnd) : null;
    if (known) {
      ({ cat, pid, tid, pidText, tidText } = known.values);
      ({ nameStart, nameEnd, ts, dur, args } = this.header);
    }
    let keys = 0; // the keys read, 4 bits each: a header as sameHeader() knows it is remembered
    for (; !known;) {
      p = this.skipWs(p);
      if (p >= buf.length) throw NEED_MORE;
      if (buf[p] === Ch.BraceClose) {
        p++;
        break;
      }
      if (buf[p] !== Ch.Comma) throw GIVE_UP;
      p = this.skipWs(p + 1);
      if (p >= buf.length) throw NEED_MORE;
      if (buf[p] !== Ch.Quote) throw GIVE_UP;
      const keyEnd = this.stringEnd(p);
      const key = eventKeyOf(buf, p + 1, keyEnd - 1);
      keys = keys * 16 + key + 1;
      p = this.skipWs(keyEnd);
      if (p >= buf.length) throw NEED_MORE;
      if (buf[p] !== Ch.Colon) throw GIVE_UP;
      p = this.skipWs(p + 1);
      if (p >= buf.length) throw NEED_MORE;
      const first = buf[p];
      if (first === Ch.BraceOpen || first === Ch.BracketOpen) {
        args = p;
        if (keys === HEADER_KEYS && ph === PH_COMPLETE && nameStart >= 0)
          this.remember({ lead: phEnd, nameStart, nameEnd, args }, { cat, pid, tid, pidText, tidText });
        break;
      }
      if (first === Ch.Quote) {
        if (key === EventKey.Ts || key === EventKey.Dur) throw GIVE_UP;
        if (key === EventKey.Name) {
          nameStart = p + 1;
          p = this.stringEndFast(p);
          nameEnd = p - 1;
        } else {
          const end = this.stringEnd(p);
          if (key === EventKey.Cat) cat = matchCat(buf, p + 1, end - 1);
          else if (key === EventKey.Pid) {
            pid = NaN;
            pidText = this.decode(p + 1, end - 1);
          } else if (key === EventKey.Tid) {
            tid = NaN;
            tidText = this.decode(p + 1, end - 1);
          }
          p = end;
        }
        continue;
      }
      const valueStart = p;
      p = this.parseNumberOrSkip(p);
      if (key === EventKey.Pid) {
        pid = this.numberValue;
        pidText = null;
      } else if (key === EventKey.Tid) {
        tid = this.numberValue;
        tidText = null;
      } else if (key === EventKey.Ts) {
        ts = this.numberValue;
        this.header.tsStart = valueStart;
        this.header.tsEnd = p;
      } else if (key === EventKey.Dur) {
        dur = this.numberValue;
        this.header.durStart = valueStart;
        this.header.durEnd = p;
      }
    }
    const headerEnd = args >= 0 ? args : p;
    if (ph === PH_METADATA) {
      // kineto writes its name first: parsed whole with its block
      this.record.markMetadata();
      return headerEnd;
    }
    if (ph === PH_INSTANT) return headerEnd; // not drawn, no track (kineto writes some name first)
    if (!startKnown || !(Math.abs(ts) <= MAX_ABS_TS_US)) throw GIVE_UP;
    const complete = ph === PH_COMPLETE;
    if (complete ? !(dur >= 0 && dur <= MAX_ABS_TS_US) : ph !== PH_FLOW_START && ph !== PH_FLOW_END) throw GIVE_UP;
    const device = isDeviceCat(cat);
    const launch = complete && (cat === Cat.CudaRuntime || cat === Cat.CudaDriver);
    const kernel = complete && device && cat !== Cat.GpuUserAnnotation;
    const step = complete && !device && !launch && nameStart >= 0 && startsWith(buf, nameStart, nameEnd, PROFILER_STEP);
    let correlation = -1;
    let resume = headerEnd;
    if ((launch || kernel) && args >= 0) {
      // the args' correlation, before the next event (read before anything is recorded: this may need more bytes)
      const next = this.findPh(args);
      if (next < 0) throw NEED_MORE;
      const at = this.find(CORRELATION_KEY, args);
      if (at >= 0 && at < next) {
        this.parseNumberOrSkip(this.skipWs(at + CORRELATION_KEY.length));
        if (Number.isFinite(this.numberValue)) correlation = this.numberValue;
      }
      resume = next - 1;
      while (resume > args && buf[resume] !== Ch.BraceOpen && buf[resume] !== Ch.Comma) resume--;
    }
    if (this.record.empty && this.part.from > 0 && this.bufOrigin + b !== this.part.from) throw GIVE_UP; // not split at an event
    const record = this.record;
    record.place(this.bufOrigin + b, ts, complete ? dur : 0);
    const [trackPid, trackTid] = [pidText ?? pid, tidText ?? tid];
    if (
      (typeof trackPid === 'number' && !Number.isFinite(trackPid)) ||
      (typeof trackTid === 'number' && !Number.isFinite(trackTid))
    )
      throw GIVE_UP;
    const track = record.trackOf(trackPid, trackTid, device);
    if (!complete) return headerEnd;
    record.events++;
    if (ts < record.origin) record.origin = ts;
    // a compiled call's span and its guard check before it: a repeated call is widened to them (buildModel.findSteps)
    const region =
      complete &&
      !device &&
      !launch &&
      nameStart >= 0 &&
      (startsWith(buf, nameStart, nameEnd, COMPILED_REGION_BYTES) ||
        bytesEqual(buf, nameStart, nameEnd, CACHE_LOOKUP_BYTES));
    if (!launch && !kernel && !step && !region) return headerEnd;
    if (launch && correlation >= 0 && bytesEqual(buf, nameStart, nameEnd, GRAPH_LAUNCH))
      record.graphLaunch(correlation);
    const kind = launch
      ? SliceKind.RuntimeLaunch
      : kernel
        ? SliceKind.KernelExtern
        : region
          ? SliceKind.CpuOp
          : SliceKind.Step;
    record.addRow(ts, dur, kind, launch ? 0 : this.nameId(nameStart, nameEnd), correlation, track);
    return resume;
  }

  /**
   * The template whose bytes the slice header after `p` (the end of "ph"'s value) has around its name, ts and dur,
   * with those read into `header`; null where none has them (the header is then walked key by key).
   */
  private sameHeader(p: number): HeaderTemplate<SkimHeader> | null {
    const buf = this.buf;
    const words = this.templates.wordsOf(buf);
    const h = this.header;
    for (let k = 0; k < this.templates.count; k++) {
      const t = this.templates.inTurn(k);
      if (!sameBytes(buf, words, p, t.lead)) continue;
      h.nameStart = p + t.lead.bytes.length;
      h.nameEnd = this.stringEndFast(h.nameStart - 1) - 1;
      if (!sameBytes(buf, words, h.nameEnd, t.mid)) continue;
      let q = this.parseNumberOrSkip(h.nameEnd + t.mid.bytes.length);
      h.ts = this.numberValue;
      if (!sameBytes(buf, words, q, t.afterTs)) continue;
      q = this.parseNumberOrSkip(q + t.afterTs.bytes.length);
      h.dur = this.numberValue;
      if (!sameBytes(buf, words, q, t.afterDur)) continue;
      h.args = q + t.afterDur.bytes.length;
      if (buf[h.args] === Ch.BraceOpen || buf[h.args] === Ch.BracketOpen) {
        this.templates.matched(k);
        return t;
      }
    }
    return null;
  }

  /** Keeps the slice header just walked (kineto's keys in kineto's order) as a template. */
  private remember(at: { lead: number; nameStart: number; nameEnd: number; args: number }, values: SkimHeader): void {
    const { buf, header: h } = this;
    this.templates.add(
      buf,
      [at.lead, at.nameStart, at.nameEnd, h.tsStart, h.tsEnd, h.durStart, h.durEnd, at.args],
      values,
    );
  }

  /** The id of the name in buf[start, end) (a string's body), decoded once per spelling. */
  private nameId(start: number, end: number): number {
    this.hashedStringEnd(start - 1);
    const hash = this.stringHash;
    const known = this.nameIds.find(this.buf, start, end, hash);
    if (known >= 0) return known;
    const id = this.record.internText(this.decode(start, end));
    this.nameIds.add(this.buf, start, end, hash, id);
    return id;
  }

  /** stringEnd by the engine's search for the closing quote (names are long), walking only where a backslash precedes it. */
  private stringEndFast(p: number): number {
    const quote = this.buf.indexOf(Ch.Quote, p + 1);
    if (quote < 0) throw NEED_MORE;
    return this.buf[quote - 1] === Ch.Backslash ? this.stringEnd(p) : quote + 1;
  }
}

function startsWith(buf: Uint8Array, start: number, end: number, prefix: Uint8Array): boolean {
  return end - start >= prefix.length && bytesEqual(buf, start, start + prefix.length, prefix);
}
