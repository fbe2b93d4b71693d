// Which rank of a distributed job a trace file is, from the first characters of the file alone: torch.profiler
// (kineto) writes "distributedInfo", "host_name" and "baseTimeNanoseconds" before "traceEvents", so a folder of
// rank traces is sorted without scanning any of them. The file name (rank3.json, rank_3.pt.trace.json) is the
// fallback for traces written without a process group. node/trace/readTraceHead.ts reads a file's head (gzip too).
import { baseName } from '../fileName.ts';

export interface TraceHead {
  /** distributedInfo.rank, else the file name's rank number, else null (a report's rank list overrides both) */
  rank: number | null;
  rankFrom: 'distributedInfo' | 'file name' | 'report' | null;
  /** distributedInfo.world_size */
  worldSize: number | null;
  /** distributedInfo.backend: "nccl", "gloo", ... */
  backend: string | null;
  /** the host that wrote the trace: ranks of one host share one clock */
  hostName: string | null;
  /** kineto's baseTimeNanoseconds (event ts are µs after it), as decimal digits: it is past 2^53 */
  baseTimeNs: string | null;
  /** the head reads as a Chrome trace (a "traceEvents" key, or a bare event array) */
  looksLikeTrace: boolean;
}

const FILE_NAME_RANK = /rank[_-]?(\d+)/i;

/** The rank a file name gives (rank0.trace.json, trace_rank_12.json.gz), or null. */
export function rankFromFileName(file: string): number | null {
  const match = FILE_NAME_RANK.exec(baseName(file));
  return match ? Number(match[1]) : null;
}

/** Reads the facts above from the first characters of a trace file; `file` gives the name fallback. */
export function parseTraceHead(text: string, file: string): TraceHead {
  const eventsAt = text.indexOf('"traceEvents"');
  // only the header: an event's args may hold keys of the same names
  const header = eventsAt >= 0 ? text.slice(0, eventsAt) : text;
  const info = objectAfterKey(header, 'distributedInfo');
  const infoRank = integer(info?.['rank']);
  const nameRank = rankFromFileName(file);
  const hostNameJson = /"host_name"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(header)?.[1];
  const baseTimeNs = /"baseTimeNanoseconds"\s*:\s*(\d+)/.exec(header)?.[1];
  return {
    rank: infoRank ?? nameRank,
    rankFrom: infoRank !== null ? 'distributedInfo' : nameRank !== null ? 'file name' : null,
    worldSize: integer(info?.['world_size']),
    backend: typeof info?.['backend'] === 'string' ? info['backend'] : null,
    hostName: hostNameJson === undefined ? null : (JSON.parse(hostNameJson) as string),
    baseTimeNs: baseTimeNs ?? null,
    looksLikeTrace: eventsAt >= 0 || /^\s*\[/.test(text),
  };
}

/** The JSON object value of `"key": {...}` in text, or null (braces inside strings are skipped). */
function objectAfterKey(text: string, key: string): Record<string, unknown> | null {
  const match = new RegExp(`"${key}"\\s*:\\s*\\{`).exec(text);
  if (!match) return null;
  const from = match.index + match[0].length - 1;
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        const value: unknown = JSON.parse(text.slice(from, i + 1));
        return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

const integer = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
