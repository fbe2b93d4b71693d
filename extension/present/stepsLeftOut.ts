// The steps an in-situ measurement left out of its steady state, counted in words: "1 step left out: the first on
// its input shape", "45 steps left out: 29 running across a switch between eager and compiled, …". The runner gives
// the counts by why (interleaved.py); this is the one place they are said.
import { plural } from './numbers.ts';

const WHY: Record<string, string> = {
  'warm-up': 'the compiled warm-up',
  switch: 'running across a switch between eager and compiled',
  'first on its signature': 'the first on its input shape (each side compiles or warms up there)',
  compiled: 'compiling',
  observer: "carrying Compile Lens's own bookkeeping",
  'ran eagerly': 'compiled steps that ran no compiled code',
};

/** The steps left out and why, or null when none was. */
export function stepsLeftOut(dropped: Readonly<Record<string, number>>): string | null {
  const reasons = Object.entries(dropped).filter(([, n]) => n > 0);
  if (!reasons.length) return null;
  const total = reasons.reduce((sum, [, n]) => sum + n, 0);
  const parts = reasons.map(([why, n]) => (reasons.length === 1 ? (WHY[why] ?? why) : `${n} ${WHY[why] ?? why}`));
  return `${plural(total, 'step')} left out: ${parts.join(', ')}`;
}
