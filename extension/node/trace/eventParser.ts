// One entry of a trace's traceEvents, read in place from the bytes into reused fields (EventFields): the keys
// the timeline uses, the correlation and kernel fields of `args`, the names and sort indices of metadata events.
// What an event means (a slice, a flow, metadata) is the scanner's part (byteScanner.ts records it).
import { HeaderTemplates, sameBytes } from './headerTemplates.ts';
import { KERNEL_ARG_FIELDS } from '../../shared/trace/model.ts';
import {
  byLength,
  bytesEqual,
  Ch,
  describeByte,
  JsonCursor,
  latin1,
  matchKey,
  matchKeyByLength,
  NEED_MORE,
} from './jsonCursor.ts';
import { ARG_FIELD_COUNT } from './rawTrace.ts';
import { Cat, CAT_NAMES } from '../../shared/trace/sliceKinds.ts';

const encoder = new TextEncoder();
const bytesOf = (text: string): Uint8Array => encoder.encode(text);
const CAT_KEYS = CAT_NAMES.map(([text, cat]) => ({ bytes: bytesOf(text), cat }));
const EVENT_KEYS = ['ph', 'cat', 'name', 'pid', 'tid', 'ts', 'dur', 'id', 'args'].map(bytesOf);
export const enum EventKey {
  Ph,
  Cat,
  Name,
  Pid,
  Tid,
  Ts,
  Dur,
  Id,
  Args,
}
/** kineto's slice header keys after "ph", in its order, as a reader packs the keys it walked (4 bits each, key + 1). */
export const HEADER_KEYS = [
  EventKey.Cat,
  EventKey.Name,
  EventKey.Pid,
  EventKey.Tid,
  EventKey.Ts,
  EventKey.Dur,
  EventKey.Args,
].reduce((keys, key) => keys * 16 + key + 1, 0);
/** The same with "ph" first: a whole slice header as parseEvent walks it. */
const EVENT_HEADER_KEYS = (EventKey.Ph + 1) * 16 ** 7 + HEADER_KEYS;
// args keys read from device events: the KERNEL_ARG_FIELDS (grid and block are 3-element arrays) + correlation
const ARG_CORRELATION = 0;
const ARG_KEYS = ['correlation', 'grid', 'block', ...KERNEL_ARG_FIELDS.slice(6)].map(bytesOf);
const ARG_KEYS_BY_LENGTH = byLength(ARG_KEYS);
const CORRELATION_KEY = ARG_KEYS[ARG_CORRELATION]!;
const CAT_BYTES = CAT_KEYS.map(({ bytes }) => bytes);
const CAT_BYTES_BY_LENGTH = byLength(CAT_BYTES);
const [KEY_A, KEY_C, KEY_D, KEY_H, KEY_I, KEY_N, KEY_P, KEY_S, KEY_T] = [...'acdhinpst'].map((c) => c.charCodeAt(0));
const ARGS_FIRST_SCALAR_FIELD = 6; // KERNEL_ARG_FIELDS index of 'registers per thread'
const META_KEYS = ['name', 'labels', 'sort_index'].map(bytesOf);

/** Scratch fields of the event being parsed; reused to avoid one allocation per event. */
export class EventFields {
  ph = 0;
  phLength = 0;
  cat: Cat = Cat.Unknown;
  nameStart = -1;
  nameEnd = -1;
  nameHash = 0;
  pid = '';
  pidNum = NaN;
  tid = '';
  tidNum = NaN;
  hasPid = false;
  hasTid = false;
  ts = NaN;
  tsWrongType = false;
  dur = NaN;
  durWrongType = false;
  hasDur = false;
  id = NaN;
  idText = '';
  argsStart = -1;
  argsEnd = -1;
  /** hostArgs() read args in one pass: hostCorrelation is what readArgs would return for a host event */
  hostCorrelationKnown = false;
  hostCorrelation = -1;
  reset(): void {
    this.hostCorrelationKnown = false;
    this.hostCorrelation = -1;
    this.ph = 0;
    this.phLength = 0;
    this.cat = Cat.Unknown;
    this.nameStart = -1;
    this.nameEnd = -1;
    this.pid = '';
    this.pidNum = NaN;
    this.tid = '';
    this.tidNum = NaN;
    this.hasPid = false;
    this.hasTid = false;
    this.ts = NaN;
    this.tsWrongType = false;
    this.dur = NaN;
    this.durWrongType = false;
    this.hasDur = false;
    this.id = NaN;
    this.idText = '';
    this.argsStart = -1;
    this.argsEnd = -1;
  }
}

/** What a header template says (headerTemplates.ts): the fields its bytes give, as parseEvent read them. */
type EventHeader = Pick<EventFields, 'ph' | 'cat' | 'pid' | 'pidNum' | 'tid' | 'tidNum'>;

/** Metadata args read by readMetaArgs: process/thread names, process labels, sort indices. */
export interface MetaArgs {
  name?: string;
  labels?: string;
  sortIndex?: number;
}

/** Reads the event objects of traceEvents; a subclass records each one (record()). */
export abstract class TraceEventParser extends JsonCursor {
  protected readonly event = new EventFields();
  /** the kernel fields readArgs read (KERNEL_ARG_FIELDS order, NaN where absent) */
  protected readonly argScratch = new Float64Array(ARG_FIELD_COUNT);
  /** whether the last readArgs() left kernel fields in argScratch */
  protected kernelArgsRead = false;
  /** Whether a header like a recent slice's is read by comparing its bytes (else every key is walked: tests compare). */
  protected readHeaders = true;
  private readonly templates = new HeaderTemplates<EventHeader>();
  /** where the walked event's ts and dur are: [ts's start, ts's end, dur's start, dur's end] */
  private readonly numbersAt: [number, number, number, number] = [-1, -1, -1, -1];

  /** Stores the event just parsed into `event` (at absolute byte `byte`), or logs why it was skipped. */
  protected abstract record(byte: number): void;

  /** Parses one event object at p (a '{'); returns the index after it. */
  protected parseEvent(p: number): number {
    const buf = this.buf;
    const ev = this.event;
    const eventByte = this.bufOrigin + p;
    const known = this.readHeaders && this.templates.count > 0 ? this.sameHeader(p) : -1;
    if (known >= 0) {
      this.record(eventByte);
      return known;
    }
    ev.reset();
    const brace = p;
    let keys = 0; // the keys walked, 4 bits each: a header as sameHeader() knows it is remembered
    p = this.skipWs(p + 1);
    if (p >= buf.length) throw NEED_MORE;
    if (buf[p] === Ch.BraceClose) {
      this.problems.add("event has no 'ph' (phase), skipped", eventByte);
      return p + 1;
    }
    const len = buf.length;
    for (;;) {
      if (p >= buf.length) throw NEED_MORE;
      if (buf[p] !== Ch.Quote) throw this.syntax(`expected a key in an event, found ${describeByte(buf[p]!)}`, p);
      const keyEnd = this.stringEnd(p);
      const key = eventKeyOf(buf, p + 1, keyEnd - 1);
      keys = keys * 16 + key + 1;
      p =
        keyEnd < buf.length && buf[keyEnd] === Ch.Colon
          ? keyEnd + 1
          : this.expect(this.skipWs(keyEnd), Ch.Colon, "':' after a key");
      if (p < buf.length && buf[p] !== Ch.Quote && buf[p]! <= Ch.Space) p = this.skipWs(p);
      if (p >= buf.length) throw NEED_MORE;
      const isString = buf[p] === Ch.Quote;
      let end: number;
      switch (key) {
        case EventKey.Ph:
          end = this.skipValue(p);
          if (isString) {
            ev.ph = buf[p + 1]!;
            ev.phLength = end - p - 2;
          }
          break;
        case EventKey.Cat:
          end = this.skipValue(p);
          if (isString) ev.cat = matchCat(buf, p + 1, end - 1);
          break;
        case EventKey.Name:
          if (isString) {
            end = this.hashedStringEnd(p);
            ev.nameStart = p + 1;
            ev.nameEnd = end - 1;
            ev.nameHash = this.stringHash;
          } else end = this.skipValue(p);
          break;
        case EventKey.Pid:
        case EventKey.Tid: {
          // A numeric id's text (String(num)) is made only when needed: see idTexts().
          let text = '';
          let num = NaN;
          if (isString) {
            end = this.stringEnd(p);
            text = this.decode(p + 1, end - 1);
          } else {
            end = this.parseNumberOrSkip(p);
            num = this.numberValue;
            if (Number.isNaN(num)) text = latin1(buf, p, Math.min(end, p + 32));
          }
          if (key === EventKey.Pid) {
            ev.pid = text;
            ev.pidNum = num;
            ev.hasPid = true;
          } else {
            ev.tid = text;
            ev.tidNum = num;
            ev.hasTid = true;
          }
          break;
        }
        case EventKey.Ts:
        case EventKey.Dur: {
          end = this.parseNumberOrSkip(p);
          if (key === EventKey.Ts) {
            ev.ts = this.numberValue;
            ev.tsWrongType = Number.isNaN(ev.ts);
          } else {
            ev.dur = this.numberValue;
            ev.hasDur = true;
            ev.durWrongType = Number.isNaN(ev.dur);
          }
          const at = key === EventKey.Ts ? 0 : 2;
          this.numbersAt[at] = p;
          this.numbersAt[at + 1] = end;
          break;
        }
        case EventKey.Id:
          if (isString) {
            end = this.stringEnd(p);
            ev.idText = this.decode(p + 1, end - 1);
            ev.id = NaN;
          } else {
            end = this.parseNumberOrSkip(p);
            ev.id = this.numberValue;
            ev.idText = '';
          }
          break;
        case EventKey.Args:
          if (buf[p] === Ch.BraceOpen) {
            end = this.hostArgs(p);
            ev.hostCorrelationKnown = end >= 0; // per args object: a repeated 'args' key replaces the first
            if (end < 0) end = this.skipValue(p);
            ev.argsStart = p;
            ev.argsEnd = end;
          } else end = this.skipValue(p);
          break;
        default:
          end = this.skipValue(p);
      }
      p = end < len && buf[end]! > Ch.Space ? end : this.skipWs(end);
      if (p >= len) throw NEED_MORE;
      if (buf[p] === Ch.Comma) {
        p++;
        if (p < len && buf[p]! <= Ch.Space) p = this.skipWs(p);
        continue;
      }
      if (buf[p] === Ch.BraceClose) break;
      throw this.syntax(`expected ',' or '}' in an event, found ${describeByte(buf[p]!)}`, p);
    }
    if (keys === EVENT_HEADER_KEYS && this.readHeaders) this.remember(brace, p);
    this.record(eventByte);
    return p + 1;
  }

  /**
   * Where the event at `brace` has a recent slice's header but for its name, ts and dur (headerTemplates.ts),
   * and args that hostArgs reads whole and then its closing brace, the event read into `event` without walking
   * its keys: returns the index after it. Else -1, `event` left for parseEvent to walk the keys.
   */
  private sameHeader(brace: number): number {
    const buf = this.buf;
    const words = this.templates.wordsOf(buf);
    for (let k = 0; k < this.templates.count; k++) {
      const t = this.templates.inTurn(k);
      if (!sameBytes(buf, words, brace, t.lead)) continue;
      const nameQuote = brace + t.lead.bytes.length - 1;
      const nameEnd = this.hashedStringEnd(nameQuote);
      const nameHash = this.stringHash;
      if (!sameBytes(buf, words, nameEnd - 1, t.mid)) continue;
      const tsEnd = this.parseNumberOrSkip(nameEnd - 1 + t.mid.bytes.length);
      const ts = this.numberValue;
      if (!sameBytes(buf, words, tsEnd, t.afterTs)) continue;
      const durEnd = this.parseNumberOrSkip(tsEnd + t.afterTs.bytes.length);
      const dur = this.numberValue;
      if (!sameBytes(buf, words, durEnd, t.afterDur)) continue;
      const argsStart = durEnd + t.afterDur.bytes.length;
      if (argsStart >= buf.length) throw NEED_MORE;
      if (buf[argsStart] !== Ch.BraceOpen) continue;
      const ev = this.event;
      ev.reset();
      const argsEnd = this.hostArgs(argsStart);
      if (argsEnd < 0) return -1;
      const close = this.skipWs(argsEnd);
      if (close >= buf.length) throw NEED_MORE;
      if (buf[close] !== Ch.BraceClose) return -1;
      this.templates.matched(k);
      const v = t.values;
      ev.ph = v.ph;
      ev.phLength = 1;
      ev.cat = v.cat;
      ev.pid = v.pid;
      ev.pidNum = v.pidNum;
      ev.hasPid = true;
      ev.tid = v.tid;
      ev.tidNum = v.tidNum;
      ev.hasTid = true;
      ev.nameStart = nameQuote + 1;
      ev.nameEnd = nameEnd - 1;
      ev.nameHash = nameHash;
      ev.ts = ts;
      ev.tsWrongType = Number.isNaN(ts);
      ev.dur = dur;
      ev.hasDur = true;
      ev.durWrongType = Number.isNaN(dur);
      ev.argsStart = argsStart;
      ev.argsEnd = argsEnd;
      ev.hostCorrelationKnown = true;
      return close + 1;
    }
    return -1;
  }

  /**
   * Keeps the header of the event just walked (at `brace`, closed at `close`) as a template: where its keys were
   * kineto's in kineto's order, its ph one letter, its name a string, its ts and dur numbers, and its args an object
   * hostArgs read whole with nothing after them.
   */
  private remember(brace: number, close: number): void {
    const ev = this.event;
    if (
      ev.phLength !== 1 ||
      ev.nameStart < 0 ||
      ev.tsWrongType ||
      ev.durWrongType ||
      !ev.hostCorrelationKnown ||
      this.skipWs(ev.argsEnd) !== close
    )
      return;
    const [tsStart, tsEnd, durStart, durEnd] = this.numbersAt;
    const { ph, cat, pid, pidNum, tid, tidNum } = ev;
    this.templates.add(this.buf, [brace, ev.nameStart, ev.nameEnd, tsStart, tsEnd, durStart, durEnd, ev.argsStart], {
      ph,
      cat,
      pid,
      pidNum,
      tid,
      tidNum,
    });
  }

  /**
   * Reads correlation (all events) and the kernel args (device events: into argScratch, and kernelArgsRead says
   * whether there were any); returns the correlation or -1.
   */
  protected readArgs(device: boolean): number {
    const ev = this.event;
    this.kernelArgsRead = false;
    if (ev.argsStart < 0) return -1;
    if (!device && ev.hostCorrelationKnown) return ev.hostCorrelation;
    const buf = this.buf;
    const values = this.argScratch;
    values.fill(NaN);
    let correlation = -1;
    let p = this.skipWs(ev.argsStart + 1);
    if (buf[p] === Ch.BraceClose) return -1;
    for (;;) {
      if (buf[p] !== Ch.Quote) throw this.syntax(`expected a key in args, found ${describeByte(buf[p]!)}`, p);
      const keyEnd = this.stringEnd(p);
      const key = matchKeyByLength(buf, p + 1, keyEnd - 1, ARG_KEYS, ARG_KEYS_BY_LENGTH);
      p = this.skipWs(this.expect(this.skipWs(keyEnd), Ch.Colon, "':' after a key"));
      let end: number;
      if (key === ARG_CORRELATION) {
        end = this.parseNumberOrSkip(p);
        if (Number.isFinite(this.numberValue)) correlation = this.numberValue;
      } else if (device && (key === 1 || key === 2) && buf[p] === Ch.BracketOpen) {
        end = this.readTriple(p, values, key === 1 ? 0 : 3);
      } else if (device && key > 2) {
        end = this.parseNumberOrSkip(p);
        values[ARGS_FIRST_SCALAR_FIELD + key - 3] = this.numberValue;
      } else {
        end = this.skipValue(p);
      }
      p = this.skipWs(end);
      if (buf[p] === Ch.Comma) {
        p = this.skipWs(p + 1);
        continue;
      }
      break;
    }
    this.kernelArgsRead = device && values.some((v) => !Number.isNaN(v));
    return correlation;
  }

  /**
   * One-pass read of a well-formed flat args object at p (a '{') for host events, which need only the
   * correlation: leaves in event.hostCorrelation what readArgs would return and returns the index after the
   * object. Returns -1 on anything unusual (then skipValue + readArgs handle it, with their errors); throws
   * only NEED_MORE, where skipValue would too.
   */
  private hostArgs(p: number): number {
    const buf = this.buf;
    const len = buf.length;
    let correlation = -1;
    p++;
    if (p < len && buf[p]! <= Ch.Space) p = this.skipWs(p);
    if (p >= len) throw NEED_MORE;
    if (buf[p] === Ch.BraceClose) {
      this.event.hostCorrelation = -1;
      return p + 1;
    }
    for (;;) {
      if (buf[p] !== Ch.Quote) return -1;
      const keyEnd = this.stringEnd(p);
      const isCorrelation =
        keyEnd - p - 2 === CORRELATION_KEY.length && bytesEqual(buf, p + 1, keyEnd - 1, CORRELATION_KEY);
      p = this.skipWs(keyEnd);
      if (p >= len) throw NEED_MORE;
      if (buf[p] !== Ch.Colon) return -1;
      p++;
      if (p < len && buf[p]! <= Ch.Space) p = this.skipWs(p);
      if (p >= len) throw NEED_MORE;
      const first = buf[p]!;
      let end: number;
      if (first === Ch.Quote || first === Ch.BraceOpen || first === Ch.BracketOpen) {
        end = this.skipValue(p); // never a syntax error for these
      } else if (first === Ch.Minus || (first >= Ch.Zero && first <= Ch.Nine)) {
        end = this.parseNumberFast(p);
        if (end < 0) return -1;
        if (isCorrelation && Number.isFinite(this.numberValue)) correlation = this.numberValue;
      } else return -1;
      p = end < len && buf[end]! > Ch.Space ? end : this.skipWs(end);
      if (p >= len) throw NEED_MORE;
      if (buf[p] === Ch.BraceClose) {
        this.event.hostCorrelation = correlation;
        return p + 1;
      }
      if (buf[p] !== Ch.Comma) return -1;
      p++;
      if (p < len && buf[p]! <= Ch.Space) p = this.skipWs(p);
      if (p >= len) throw NEED_MORE;
    }
  }

  /** The args of a metadata event. */
  protected readMetaArgs(): MetaArgs {
    const ev = this.event;
    const buf = this.buf;
    const out: MetaArgs = {};
    let p = this.skipWs(ev.argsStart + 1);
    while (buf[p] === Ch.Quote) {
      const keyEnd = this.stringEnd(p);
      const key = matchKey(buf, p + 1, keyEnd - 1, META_KEYS);
      p = this.skipWs(this.expect(this.skipWs(keyEnd), Ch.Colon, "':' after a key"));
      let end: number;
      if (key === 2) {
        end = this.parseNumberOrSkip(p);
        if (Number.isFinite(this.numberValue)) out.sortIndex = this.numberValue;
      } else if (key >= 0 && buf[p] === Ch.Quote) {
        end = this.stringEnd(p);
        const text = this.decode(p + 1, end - 1);
        if (key === 0) out.name = text;
        else out.labels = text;
      } else {
        end = this.skipValue(p);
      }
      p = this.skipWs(end);
      if (buf[p] !== Ch.Comma) break;
      p = this.skipWs(p + 1);
    }
    return out;
  }

  /** Fills in the text of numeric pid/tid values (String(num)), which parseEvent leaves empty. */
  protected idTexts(): void {
    const ev = this.event;
    if (ev.hasPid && ev.pid === '' && !Number.isNaN(ev.pidNum)) ev.pid = String(ev.pidNum);
    if (ev.hasTid && ev.tid === '' && !Number.isNaN(ev.tidNum)) ev.tid = String(ev.tidNum);
  }
}

/** EventKey of the key bytes buf[start, end), or -1: dispatch on length and first bytes (hot: every key of every event). */
export function eventKeyOf(buf: Uint8Array, start: number, end: number): number {
  const a = buf[start];
  switch (end - start) {
    case 2: {
      const b = buf[start + 1];
      if (a === KEY_P && b === KEY_H) return EventKey.Ph;
      if (a === KEY_T && b === KEY_S) return EventKey.Ts;
      if (a === KEY_I && b === KEY_D) return EventKey.Id;
      return -1;
    }
    case 3:
      if (a === KEY_C) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Cat]!) ? EventKey.Cat : -1;
      if (a === KEY_P) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Pid]!) ? EventKey.Pid : -1;
      if (a === KEY_T) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Tid]!) ? EventKey.Tid : -1;
      if (a === KEY_D) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Dur]!) ? EventKey.Dur : -1;
      return -1;
    case 4:
      if (a === KEY_N) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Name]!) ? EventKey.Name : -1;
      if (a === KEY_A) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Args]!) ? EventKey.Args : -1;
      return -1;
    default:
      return -1;
  }
}

export function matchCat(buf: Uint8Array, start: number, end: number): Cat {
  const k = matchKeyByLength(buf, start, end, CAT_BYTES, CAT_BYTES_BY_LENGTH);
  return k < 0 ? Cat.Unknown : CAT_KEYS[k]!.cat;
}
