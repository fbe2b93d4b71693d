// Every number a user reads, one function per quantity: the CLI, the report panel, the CodeLens, the hover, Problems,
// the Runs view and --json show the same value the same way. The runner's own sentences format theirs with
// native-runner/compile_lens_runner/formats.py; test/fixtures/numbers.json holds both to the same strings.

/** "1 call", "3 graphs", "2 recompiles"; `many` for irregular plurals */
export const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

/** "19,467": a whole count with thousands separators (steps, calls) */
export const formatWhole = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "0.5" for "0.500", "1" for "1.00" where the value is that number: its trailing zeros would read as digits measured
 *  (review 3C: "0.500 ms"); else kept, digits as measured as the others ("19.0 ms" beside "25.6 ms", "57.0 s" beside
 *  "55.1 s": review 10G E11, one precision for every time) */
const trimmed = (text: string, value: number): string =>
  text.includes('.') && Number(text) === value ? text.replace(/0+$/, '').replace(/\.$/, '') : text;

/** `value` (positive) to three significant digits: "412", "14.2", "19.0", "5.42", "0.542", "0.0523"; without trailing
 *  zeros where it is that number ("0.5", "1"); the rounded value's digits ("100", not "100.0", from 99.95), so that
 *  "437.6" and "0.531" never stand beside "412" and "1.2" */
function threeDigits(value: number): string {
  return trimmed(measuredDigits(value), value);
}

/** `value` (positive) to three significant digits, every one kept: "2.40", "0.500", "1.00" */
const measuredDigits = (value: number): string => significantDigits(value, 3);

/** `value` (positive) to `digits` significant digits (at most digits + 2 decimals), every one kept: "2.40", "2.402";
 *  the rounded value's digits ("100", not "100.0", from 99.95) */
function significantDigits(value: number, digits: number): string {
  const decimals = Math.min(digits + 2, Math.max(0, digits - 1 - Math.floor(Math.log10(value))));
  const text = value.toFixed(decimals);
  return decimals > 0 && Number(text) >= 10 ** (digits - decimals) ? value.toFixed(decimals - 1) : text;
}

/** "61.7 s", "6.04 s", "525 ms", "1.6 ms": a compile time or a wall time, by the rule of every time (formatMs's) */
export const formatSeconds = (seconds: number): string => formatMs(seconds * 1000);

/** "61.7 s", "6.04 s", "412 ms", "14.2 ms", "19.0 ms", "0.542 ms", "0.1 ms", "52.3 µs", "0 ms": every time a user reads,
 *  to three significant digits (trailing zeros dropped only where the value is that number: trimmed), so that times beside a ratio divide to it ("0.54 ms → 0.14 ms" read as 3.86× beside 3.99×)
 *  and rows add up to their total ("6.0 s" + "525 ms" under "6.6 s" read as 6.5 s); under 0.1 ms, µs (review 8 A15:
 *  "0.00965 ms") */
export function formatMs(ms: number): string {
  if (ms === 0) return '0 ms';
  const text = threeDigits(ms);
  if (Number(text) < 0.1 && Number(threeDigits(ms * 1000)) < 100) return `${threeDigits(ms * 1000)} µs`;
  return Number(text) >= 1000 ? `${threeDigits(ms / 1000)} s` : `${text} ms`;
}

/** Eager's and compiled's times per call that a speedup is the ratio of, as formatMs says them, with a digit more
 *  each (up to six) where the shown times would divide to another shown speedup: "17.3 µs" over "16.5 µs" reads
 *  1.048× beside a 1.04× (review 14S S0: two runs' times then fell while their speedups rose), "17.25 µs" over
 *  "16.54 µs" reads 1.04×. */
export function formatTimesOfRatio(eagerMs: number, compiledMs: number, speedup: number): [string, string] {
  const shown = formatSpeedup(speedup);
  for (let digits = 3; digits <= 6; digits++) {
    const [eager, compiled] = [msTo(eagerMs, digits), msTo(compiledMs, digits)];
    if (formatSpeedup(eager.ms / compiled.ms) === shown) return [eager.text, compiled.text];
  }
  // not the ratio of these times at any digits (a number made by hand): no digit more could trace it
  return [formatMs(eagerMs), formatMs(compiledMs)];
}

interface Shown {
  text: string;
  /** the value the text reads, in ms */
  ms: number;
}

/** `ms` in formatMs's unit for it, to `digits` significant digits (trimmed where it is that number). */
function msTo(ms: number, digits: number): Shown {
  const unit = formatMs(ms).split(' ')[1]!;
  const perMs = unit === 's' ? 1e-3 : unit === 'µs' ? 1e3 : 1;
  const text = trimmed(significantDigits(ms * perMs, digits), ms * perMs);
  return { text: `${text} ${unit}`, ms: Number(text) / perMs };
}

/** "14.2 ms", "869 µs", "27.9 µs", "2.40 µs": a trace's time, from its microseconds, every one of its three digits kept:
 *  the profiler records to the nanosecond, so "2.40" is as measured as "1.50" beside it (review 12N N7: "2.4 µs"
 *  among "6.51", "1.28", "3.33 µs"); from 1 ms on in ms, from 1 s on in s */
export function formatUs(us: number): string {
  if (us === 0) return '0 µs';
  if (us < 0) return `−${formatUs(-us)}`;
  for (const [unit, per] of [
    ['µs', 1],
    ['ms', 1e3],
  ] as const) {
    const text = measuredDigits(us / per);
    if (Number(text) < 1000) return `${text} ${unit}`;
  }
  return `${measuredDigits(us / 1e6)} s`;
}

/** The microseconds a time as formatUs or formatUsLike wrote it reads ("0.869 ms": 869): a multiple of two shown
 *  times is then the one their reader works out ("154 µs" and "331 µs": 2.15×, review 15V V4) */
export function shownUs(text: string): number {
  const [digits, unit] = text.split(/\s/);
  const value = Number(digits!.replace(/,/g, '').replace('−', '-'));
  return value * (unit === 's' ? 1e6 : unit === 'ms' ? 1e3 : 1);
}

/** `text` with each time bound to its unit by a no-break space: "70.5 µs" never wraps to "70.5" over "µs" (review 8
 *  A15) where a narrow cell wraps its words */
export const keepUnits = (text: string): string => text.replace(/(\d) (?=(?:ms|µs|ns|s)(?![\w]))/g, '$1\u00a0');

/** `text` cut into its times with their units ("9.65 s", "−1,200 µs") and the rest, in order: a page keeps each
 *  time whole where it wraps its words (review 16 X6: a heading wrapped "9.65" over "s"), its text unchanged */
export function splitTimes(text: string): { text: string; time: boolean }[] {
  const parts: { text: string; time: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(/[−-]?\d[\d,.]* (?:ms|µs|ns|s)(?![\w])/g)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), time: false });
    parts.push({ text: match[0], time: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), time: false });
  return parts;
}

/** A time in the unit formatUs gives `largestUs`, its digits as formatUs keeps them, so the times of one row read
 *  alike: "0.869 ms" beside "13.0 ms" */
export function formatUsLike(us: number, largestUs: number): string {
  const unit = formatUs(largestUs).split(' ')[1];
  if (unit === 'µs') return formatUs(us);
  if (us === 0) return `0 ${unit}`;
  return `${measuredDigits(us / (unit === 's' ? 1e6 : 1e3))} ${unit}`;
}

/** A range's ends in one unit (`unit`: the axis's), with digits enough for 3 significant ones in its length, and that
 *  length (the rounded ends' difference) as formatUs says every length: "1.4 ms – 38.7 ms (37.3 ms)", never "1 ms –
 *  39 ms (37 ms)"; "59 µs – 1,790 µs (1.73 ms)", as the range's pair says it, not "(1,731 µs)" */
export function formatRangeEnds(fromUs: number, toUs: number, unit: 'µs' | 'ms' | 's'): [string, string, string] {
  const perUnit = unit === 's' ? 1e6 : unit === 'ms' ? 1e3 : 1;
  const length = (toUs - fromUs) / perUnit;
  const digits = length > 0 ? Math.min(6, Math.max(0, 2 - Math.floor(Math.log10(length)))) : 0;
  const [from, to] = [fromUs / perUnit, toUs / perUnit].map((v) => Number(v.toFixed(digits)));
  const say = (v: number): string =>
    `${v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).replace('-', '−')} ${unit}`;
  return [say(from!), say(to!), formatUs((to! - from!) * perUnit)];
}

/** "−5 ms", "0 ms", "40 ms", "250 µs", "1.5 s": a time axis's tick labels (ticks in µs, evenly spaced), each in the
 *  unit of their spacing, so that a 40 ms step reads "40 ms", not "40,000 µs" */
export function formatTimeTicks(ticksUs: number[]): string[] {
  return ticksUs.map(timeOnTicks(ticksUs));
}

/** A time said as these ticks say theirs (their unit and digits): a time over the axis in the axis's words. The unit
 *  is `domainUs`'s where given (the length of time the axis spans), so that one view reads in one unit however many
 *  ticks its width has room for ("0.5 ms" ticks beside "3 ms" at another width, never "500 µs": review 8B B6); else
 *  their spacing's. */
export function timeOnTicks(ticksUs: number[], domainUs?: number): (us: number) => string {
  const spacing = ticksUs.length > 1 ? Math.abs(ticksUs[1]! - ticksUs[0]!) : 0;
  const size = domainUs ?? spacing;
  const [unit, perUnit] = size >= 1e6 ? ['s', 1e6] : size >= 1e3 ? ['ms', 1e3] : ['µs', 1];
  const digits = spacing > 0 ? Math.max(0, Math.ceil(-Math.log10(spacing / perUnit) - 1e-9)) : 0;
  return (t) =>
    `${(t / perUnit)
      .toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
      .replace('-', '−')} ${unit}`;
}

/** Two decimals, more under 0.1× so that a small speedup keeps two significant digits (0.0057×, not 0.01×), fewer
 *  from 10× on so that a large one keeps three ("314×": "313.96×" claims a precision no replay has) */
const speedupDigits = (value: number): number =>
  value >= 100 ? 0 : value >= 10 ? 1 : value >= 0.1 ? 2 : value >= 0.01 ? 3 : 4;

/** "1.84×", "0.17×", "0.052×", "0.0057×", "12.3×", "314×": to its own value's precision wherever it is said, beside its
 *  range or not (review 8 A15: "0.170×" beside a range's "0.068×" and "0.17×" without it read as two numbers) */
export const formatSpeedup = (speedup: number): string => `${speedup.toFixed(speedupDigits(speedup))}×`;

/** "0.87–1.32×", "0.0054–0.0061×", "0.068–0.180×": where the next run's speedup may land (the one interval form of
 *  every surface), both ends to one precision, the finer end's: "0.068–0.18×" read as two. Beside its point
 *  (`speedup`), the point's precision, finer only where an end would keep no significant digit: "0.17× (0.07–0.20×)",
 *  not "(0.068–0.195×)" beside a two-digit point (review H6; formats.py interval) */
export const formatInterval = (low: number, high: number, speedup?: number): string => {
  const digits =
    speedup === undefined
      ? Math.max(...[low, high].map(speedupDigits))
      : Math.max(speedupDigits(speedup), ...[low, high].map((end) => speedupDigits(end) - 1));
  return `${low.toFixed(digits)}–${high.toFixed(digits)}×`;
};

/** "0.15× (0.10–0.16×)", "1.31× (1.22–1.40×)": a speedup and its range, to one precision */
export const formatSpeedupRange = (speedup: number, low: number, high: number): string =>
  `${formatSpeedup(speedup)} (${formatInterval(low, high, speedup)})`;

/** "57%": a share or a spread (GPU idle, how much the rounds' ratios varied) */
export const formatPct = (pct: number): string => `${pct.toFixed(0)}%`;

/** "51 calls", "about 540 calls", "about 170,000 steps": calls or steps until compiling pays back (rounded up: a
 *  part-call never pays), from 100 on to two significant digits (formats.py break_even's rule) */
export const formatBreakEven = (n: number, unit: 'call' | 'step'): string => {
  const calls = Math.ceil(n);
  if (calls < 100) return plural(calls, unit);
  const step = 10 ** (String(calls).length - 2);
  return `about ${formatWhole(Math.floor((calls + step / 2) / step) * step)} ${unit}s`;
};

/** "3", "41.5", "4,120": kernels per step, counts that may be averages (thousands grouped) */
export const formatCount = (value: number): string =>
  Number.isInteger(value) ? formatWhole(value) : value.toFixed(1).replace(/^\d+/, (w) => formatWhole(Number(w)));

/** "1,161", "35.2", "0.3": steps per second (whole from 100 on: "1160.6" read as a measured decimal) */
export const formatRate = (value: number): string => (value >= 100 ? formatWhole(value) : value.toFixed(1));

/** "ratios varied 57% between rounds": older reports' spread, where newer ones give the interval */
export const formatSpread = (pct: number): string => `ratios varied ${formatPct(pct)} between rounds`;

/** "512 B", "6.8 KiB", "20 KiB", "1.5 MiB": a size in memory (a kernel's shared memory, bytes copied) */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 || value >= 10 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/** "0.36", "1.9", "12": an average that may be under one (blocks or warps per SM), two significant digits */
export const formatAverage = (value: number): string =>
  value >= 10 ? value.toFixed(0) : value >= 1 ? value.toFixed(1) : value.toFixed(2);
