// Numbers in words for region summaries (CLI, CodeLens, panel): one rounding rule everywhere.

export const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

/** "61.3 s", "8.2 s", "0.62 s" */
export function formatSeconds(seconds: number): string {
  return `${seconds >= 1 ? seconds.toFixed(1) : seconds.toFixed(2)} s`;
}

/** "61.7 s", "412 ms", "14.2 ms", "0.91 ms", "0.052 ms" */
export function formatMs(ms: number): string {
  if (ms >= 1000) return formatSeconds(ms / 1000);
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.1) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(3)} ms`;
}

/** "1.84×" */
export const formatSpeedup = (speedup: number): string => `${speedup.toFixed(2)}×`;

/** "3", "41.5" */
export const formatCount = (value: number): string => (Number.isInteger(value) ? String(value) : value.toFixed(1));

/**
 * A CodeLens-length line (≤ max characters) from "a · b · c" parts: whole parts while they fit, a long first part cut
 * after its last ':'-clause that fits ("r0 Net: not replayable: it changes …" → "r0 Net: not replayable"); the full text goes in the lens's tooltip.
 */
export function shortLine(text: string, max = 60): string {
  if (text.length <= max) return text;
  const parts = text.split(' · ');
  let out = parts[0]!;
  if (out.length > max) {
    // the longest run of its ':'-clauses that fits: "r0 Net: not replayable: it changes …" → "r0 Net: not replayable"
    const clauses = out.split(':');
    out = clauses[0]!.trim();
    for (const clause of clauses.slice(1)) {
      if (`${out}:${clause}`.length > max) break;
      out = `${out}:${clause}`;
    }
  }
  if (out.length > max) out = `${out.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
  for (const part of parts.slice(1)) {
    if (out.length + 3 + part.length > max) break;
    out += ` · ${part}`;
  }
  return out;
}
