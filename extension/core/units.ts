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
