// Which step each pane shows. The panes of one comparison (a region's eager and compiled, a job's ranks, the traces
// opened together) show the same step, opened past a warm-up where one of them has it; each region opens on its own
// (review 10 F2: one opening step for all panes put a region without a warm-up a step further on, or one with it on
// its warm-up). The view's step (viewState's `step`) is the first pane's; a pane's is that moved by its `lead`.
import { paneOffsets, type RankAlignment } from '../extension/shared/trace/ranks.ts';
import { OPENING_STEP } from '../extension/shared/trace/window.ts';
import type { DrawStats, TimelineCanvas } from './timeline.ts';

/**
 * Per pane, how many steps past the first pane's its step is: its comparison's opening step (past the warm-up where a
 * pane of it has one, `warmUps`; `groups`: the comparison of each pane, its region or null) less the first pane's; and
 * that first pane's opening step.
 */
export function stepLeads(
  warmUps: readonly boolean[],
  groups: readonly (string | null)[],
): { opening: number; leads: number[] } {
  const opening = new Map<string | null, number>();
  warmUps.forEach((warm, p) =>
    opening.set(groups[p]!, Math.max(opening.get(groups[p]!) ?? 0, warm ? OPENING_STEP : 0)),
  );
  const first = groups.length ? opening.get(groups[0]!)! : 0;
  return { opening: first, leads: groups.map((g) => opening.get(g)! - first) };
}

/** A pane's step index at the view's `step`: moved by its lead, from its first on; -1 past its last (it has none). */
export function paneStep(step: number, lead: number, count: number): number {
  const index = Math.max(0, step + lead);
  return index < count ? index : -1;
}

/**
 * Each pane's time 0 at the start of its step, the view's `step` moved by its lead, so steps line up vertically, and
 * that step alone drawn; a job's ranks of one host on their common clock instead (`alignment`; time 0: the earliest
 * rank's start of that step). `step` null (Fit all): every pane from its first step, whole.
 */
export function alignSteps(
  panes: readonly { timeline: TimelineCanvas }[],
  alignment: RankAlignment | null,
  step: number | null,
  leads: readonly number[],
): void {
  const models = panes.map((p) => p.timeline.model);
  const steps = models.map((model, p) => (step === null ? 0 : paneStep(step, leads[p] ?? 0, model.steps.length)));
  // (a job's ranks are one comparison, on one step; a pane without it is aligned on its last)
  const offsets = alignment
    ? paneOffsets(models, alignment, Math.max(0, step ?? 0))
    : models.map((model, p) => paneOffsets([model], null, steps[p]! < 0 ? model.steps.length : steps[p]!)[0]!);
  panes.forEach((pane, p) => {
    pane.timeline.offset = offsets[p]!;
    // (a trace without steps: all of it)
    pane.timeline.shownStep = step === null || !models[p]!.steps.length ? null : steps[p]!;
  });
}

/** The index of the last step (in start order) that starts at or before `us`; -1 when it is before them all. */
export function stepHolding(steps: readonly { start: number }[], us: number): number {
  return steps.filter((s) => s.start <= us).length - 1;
}

/** The view's steps from which every pane has a step: the first to the last where some pane still has one. */
export function stepBounds(leads: readonly number[], counts: readonly number[]): [number, number] {
  return [Math.min(0, ...leads.map((lead) => 0 - lead)), Math.max(0, ...counts.map((n, p) => n - 1 - leads[p]!))];
}

/**
 * Draws the panes, their warm-up step named alike: by its warm-up label ("warm-up step 1") in none where a pane that
 * has it in view has no room for it (review 10 G9: "warm-up step 1" in eager's ruler over "step 1" in default's at
 * 560 px, both notes saying step 1 is the warm-up). The panes that said it are drawn again without.
 */
export function drawAlike(
  panes: readonly { timeline: TimelineCanvas; stats: DrawStats }[],
  draw: (timeline: TimelineCanvas) => DrawStats,
): void {
  for (const pane of panes) {
    pane.timeline.namesWarmUp = true;
    pane.stats = draw(pane.timeline);
  }
  if (!panes.some((p) => p.timeline.saidWarmUp === false)) return;
  for (const pane of panes) {
    pane.timeline.namesWarmUp = false;
    if (pane.timeline.saidWarmUp) pane.stats = draw(pane.timeline);
  }
}
