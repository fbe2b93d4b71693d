// A rank's collective that it reached last, every other rank already in it, says so on its bar where the bar has room
// (timelineGaps.collectiveWords), and a bar too narrow for "last" says nothing: rank 0 waited for rank 1 in steps
// 2–4, and only step 2's bar said rank 1 came last (review 16Z Z3: the 20 and 14 px bars of steps 3 and 4 blank). So
// the rank's pane title says it once for all its steps, "rank 1 — 463 events, 3 steps · came last to all_reduce in
// steps 2–4", in a span of its own: the title's text is set once when the panes are made and holds the pinned
// hint's span (pinnedTitles.ts), and what a rank waited for is known only once every rank's compiler marks are
// found, after the first frame (drawFrame.ts).
import type { TraceModel } from '../extension/shared/trace/model.ts';
import { communicationNames } from './analysis/communication.ts';
import { LAST_TO_ARRIVE } from './analysis/rankWaits.ts';
import { stepNumber, stepUnit } from './analysis/stepMap.ts';
import { withoutNamespace } from './timelineText.ts';
import { cameLastWords } from './timelineWords.ts';

/** A rank's pane's canvas as read here (timeline.ts TimelineCanvas). */
interface RankPane {
  readonly model: TraceModel;
  /** what its collective over [fromUs, toUs] waited for (main.ts): LAST_TO_ARRIVE where it waited for none */
  readonly waitedFor: (fromUs: number, toUs: number) => string | null;
}

/** The steps (by number, ascending) in which the pane's rank reached a collective last, and those collectives'
 *  names (without their backend's namespace, as their bars say them). */
export function cameLast({ model, waitedFor }: RankPane): { steps: number[]; ops: string[] } {
  const collectives = communicationNames(model.names);
  const steps = new Set<number>();
  const ops = new Set<string>();
  if (!collectives.includes(1)) return { steps: [], ops: [] };
  for (let i = 0; i < model.count; i++) {
    // (its run on the collective's own thread, as its bar's words are found: timelineGaps.collectiveWords)
    if (collectives[model.name[i]!] !== 1 || model.depth[i] !== 0) continue;
    const start = model.start[i]!;
    const k = model.steps.findIndex((s) => s.start <= start && start < s.end);
    if (k < 0 || waitedFor(start, start + model.dur[i]!) !== LAST_TO_ARRIVE) continue;
    steps.add(stepNumber(model.steps[k]!.label, k + 1));
    ops.add(withoutNamespace(model.names[model.name[i]!]!));
  }
  return { steps: [...steps].sort((a, b) => a - b), ops: [...ops].sort() };
}

/** Each pane's words, found once for the waits it was found with (a load gives its panes new ones). */
const said = new WeakMap<
  RankPane,
  { waitedFor: RankPane['waitedFor']; words: ReturnType<typeof cameLastWords> | null }
>();

/** The words after the pane's title (cameLastWords), or null where its rank came last in no step. Only once every
 *  rank's compiler marks are found: before, what a rank waited for is not known (rankWaits.rankMarksOf). */
export function cameLastTitle(pane: RankPane): { text: string; tooltip: string } | null {
  const known = said.get(pane);
  if (known?.waitedFor === pane.waitedFor) return known.words;
  const { steps, ops } = cameLast(pane);
  const words = steps.length ? cameLastWords(ops, steps, stepUnit(pane.model.steps)) : null;
  said.set(pane, { waitedFor: pane.waitedFor, words });
  return words;
}
