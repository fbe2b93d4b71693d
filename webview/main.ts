// The timeline webview: report header, one timeline per pane on a shared per-step time axis, details and
// compare tables; and the compare of two runs (runCompare.ts). Speaks only the protocol.ts message unions (to the host
// through hostApi.ts); draws trace strings only as text; a frame is drawFrame.ts's.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { ignoreUnknown, type HostToWebview } from '../extension/shared/protocol.ts';
import type { Report } from '../extension/shared/report.ts';
import { communicationNames, hasCommunication } from './analysis/communication.ts';
import { compareTraces } from './analysis/compare.ts';
import { flowLinks, linkedSlices } from '../extension/shared/trace/flowLinks.ts';
import { kernelIndices } from '../extension/shared/trace/summary.ts';
import { formatUs } from '../extension/present/numbers.ts';
import type { TimelineTarget } from '../extension/shared/trace/timelineMarks.ts';
import { renderCompilePhases } from './compilePhases.ts';
import { showTarget } from './focus.ts';
import { renderKernelSource } from './kernelDetails.ts';
import { paneBreaks, paneFrames, paneKernels } from '../extension/present/kernelLinks.ts';
import { paneFromCall } from '../extension/present/regionTraces.ts';
import {
  isPartial,
  receiveRows,
  receiveTrace,
  wholeTrace,
  withInflatedArgs,
  withPackedRows,
  type Opening,
} from './opening.ts';
import { el, renderComparison, renderDetails, renderReportHeader, showBeforeEdit, swatchEntry } from './panels.ts';
import { communicationLegend, rankPanesShown, renderRankNote, renderRankSteps } from './ranks.ts';
import { RangeSelection } from './rangeSelection.ts';
import { renderRankReport } from './rankReport.ts';
import { renderRegions } from './regions.ts';
import { renderRunComparison } from './runCompare.ts';
import { reviveModel } from './reviveModel.ts';
import { restoredSelection } from './savedView.ts';
import { linesEdited, linesNow } from './sourceLinks.ts';
import { injectStyles } from './styles.ts';
import { kindLegend, readTheme } from './theme.ts';
import { TimelineCanvas } from './timeline.ts';
import { axisTime } from './timelineText.ts';
import { TimelineInput } from './timelineInput.ts';
import { stackToggles } from './timelineStacks.ts';
import { exposeDebugView } from './debugView.ts';
import { scheduleDraw } from './drawFrame.ts';
import { post, savedState, saveState } from './hostApi.ts';
import { state } from './viewState.ts';
import {
  comparisonPending,
  matchingSlices,
  paneTitle,
  readingTraces,
  timelineHelp,
  waitedFor,
} from './timelineWords.ts';
import { rankCompiler } from './analysis/rankCompiles.ts';
import { arrivedAt, LAST_TO_ARRIVE, rankMarksOf, waitedRank, type RankMarks } from './analysis/rankWaits.ts';
import { stepsAsCalls } from './analysis/sliceNames.ts';
import { paneRegions } from './paneFit.ts';
import { alignSteps, stepBounds, stepHolding, stepLeads } from './paneSteps.ts';
import { markPinnedTitles, pinnedHint } from './pinnedTitles.ts';

const app = document.getElementById('app') ?? document.body.appendChild(el('div'));
const ranges = new RangeSelection({
  panes: () => state.panes,
  partial: () => state.panes.some((p) => p.preview),
  view: () => state.current.domain() as [number, number],
  axisTime: onAxis,
  selected: () => state.selected,
  redraw: () => scheduleDraw(),
  reveal: (pane, slice) => {
    const details = document.querySelector<HTMLElement>('.details-box');
    if (details) revealSlice(pane, slice, details);
  },
});
const input = new TimelineInput({
  ranges: () => ranges,
  redraw: () => scheduleDraw(),
  save: () => saveState(),
  select: (pane, slice, details) => selectSlice(pane, slice, details),
  align: () => alignPanes(),
});
injectStyles();
// VS Code swaps body classes when the theme changes: re-read the colours.
new MutationObserver(() => {
  state.theme = readTheme();
  scheduleDraw();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// Messages are handled in turn, each once the one before is done: deflated rows or args are inflated first (async).
let inbox: Promise<void> = Promise.resolve();
window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  inbox = inbox.then(() => handleMessage(message));
});

async function handleMessage(message: HostToWebview): Promise<void> {
  try {
    switch (message.type) {
      case 'rows':
        state.rows = receiveRows(state.rows, await withPackedRows(message));
        break;
      case 'trace': {
        const timings = state.timings;
        if (!timings.message) timings.message = performance.timeOrigin + performance.now();
        state.opening = receiveTrace(state.opening, wholeTrace(state.rows, await withInflatedArgs(message)));
        state.rows = null;
        if (state.opening) load(state.opening);
        const built = performance.timeOrigin + performance.now();
        if (!timings.built) timings.built = built;
        if (!state.partial && !timings.complete) timings.complete = built;
        break;
      }
      case 'report':
        state.opening = null;
        showReport(message.title, message.report, message.traces);
        break;
      case 'edited':
        linesEdited({ file: message.file, cell: message.cell }, message.changes);
        for (const pane of state.panes) pane.timeline.linesMoved();
        linesMovedInDetails();
        scheduleDraw();
        break;
      case 'compare':
        renderRunComparison(app, message.comparison);
        break;
      case 'beforeEdit':
        state.beforeEdit = message.note;
        showBeforeEdit(app, message.note);
        break;
      case 'focus':
        state.focus = message.target;
        if (state.shown && !state.partial) applyFocus(message.target);
        break;
      case 'error':
        showError(message.message);
        break;
      default:
        ignoreUnknown(message);
    }
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    showError(text);
    post({ type: 'error', message: text });
  }
}

/** A report's panel before its traces, drawn while the host reads them. */
function showReport(title: string, report: Report, traces: number): void {
  state.report = report;
  app.replaceChildren(el('h1', undefined, title));
  appendReport(report);
  if (traces > 0) app.append(el('p', 'hint', readingTraces(traces)));
}

/** The report's parts above the timelines: header, regions, ranks, compile phases. */
function appendReport(report: Report | null): void {
  const reveal = (file: string, line: number, cell: number | null) =>
    post({ type: 'reveal', file, line, ...(cell === null ? {} : { cell }) });
  if (report) app.append(renderReportHeader(report, reveal));
  if (report && state.beforeEdit) showBeforeEdit(app, state.beforeEdit);
  const regions = report && renderRegions(report, (file, line, cell) => post({ type: 'reveal', file, line, cell }));
  if (regions) app.append(regions);
  const ranks = report && renderRankReport(report, (file, line, cell) => post({ type: 'reveal', file, line, cell }));
  if (ranks) app.append(ranks);
  const phases = renderCompilePhases(report);
  if (phases) app.append(phases);
}

function showError(text: string): void {
  app.replaceChildren(el('p', 'error', text));
}

/**
 * Shows the traces received so far. Each one that comes (a pane more, or a pane's full trace replacing its
 * preview) keeps the view the user has now (domain, step, search: saved on every change) and carries the selection
 * over to the full model; a reload (hide/show, restart) restores the saved view the same way.
 */
function load(message: Opening): void {
  const partial = isPartial(message);
  const saved = savedState();
  const view = saved?.view && JSON.stringify(saved.source) === JSON.stringify(message.source) ? saved.view : null;
  // the panes shown before this trace came: a selection made on a preview is found again in the new models
  const replaced =
    state.partial && JSON.stringify(state.source) === JSON.stringify(message.source)
      ? state.panes.map((p) => p.timeline.model)
      : null;
  // a range drawn before is summed again over the slices now in
  const keptRange = replaced ? ranges.range : null;
  const searchFocused =
    document.activeElement instanceof HTMLElement && document.activeElement.classList.contains('search');
  const scrollY = window.scrollY;
  if (JSON.stringify(state.source) !== JSON.stringify(message.source ?? null)) state.showAllRanks = false;
  state.source = message.source ?? null;
  state.partial = partial;
  state.selected = null;
  ranges.range = null;
  state.carried = null;
  state.search = view ? view.search : '';
  state.theme = readTheme();
  app.replaceChildren();
  app.append(el('h1', undefined, message.title));
  // a report's came first ('report'); trace files have none
  if (message.source.kind !== 'report') state.report = null;
  appendReport(state.report);

  const sent = message.panes.map((opened) => ({ ...opened.pane, events: opened.events, preview: opened.preview }));
  const {
    panes,
    models,
    view: rankView,
  } = rankPanesShown(
    sent,
    // an in-situ window's steps are the script's calls, said as the runner numbers them
    sent.map((pane) => stepsAsCalls(reviveModel(pane.trace), paneFromCall(state.report, pane.label))),
    partial,
    state.showAllRanks,
  );
  // a view still as the last trace's load fitted it is fitted again: a pane that came since may reach further
  const refit = !view || (replaced !== null && String(view.domain) === String(state.fitted));
  state.panes = panes.map((pane, p) => {
    const communication = communicationNames(models[p]!.names);
    const compareTo = pane.compareTo === undefined ? (p > 0 && !rankView ? 0 : null) : pane.compareTo;
    return {
      label: pane.label,
      timeline: new TimelineCanvas(models[p]!, communication, linesNow),
      stats: { rects: 0, slices: 0, rows: 0, labels: 0 },
      kernels: kernelIndices(models[p]!).length,
      communication: hasCommunication(models[p]!, communication),
      compareTo: compareTo !== null && compareTo >= 0 && compareTo < p ? compareTo : null,
      preview: pane.preview,
    };
  });
  // marks name compiles by the function of the report entry each pane was profiled for: a job's rank, by its group's
  // compile phases (rankCompiler)
  state.panes.forEach((pane, p) => {
    const rank = rankCompiler(state.report, panes[p]!.rank?.rank);
    pane.timeline.frames = rank?.frames ?? paneFrames(state.report, pane.label);
    pane.timeline.kernels = state.report ? (paneKernels(state.report, pane.label)?.kernels ?? null) : null;
    pane.timeline.breaks = rank?.graphBreaks ?? paneBreaks(state.report, pane.label);
    pane.timeline.fromCall = paneFromCall(state.report, pane.label);
  });
  // each comparison's panes on one step: a job's ranks, a region's, or the traces opened together (paneSteps.ts)
  // past the first step wherever the compare leaves it out, so the step shown is one the compare counts (review 10
  // F2: TinyTransformer opened on its step 1 above "steps 2–3 of each; step 1 left out"); an in-situ window, opened
  // after the profiler's own warm-up call, on its first
  const regions = rankView
    ? panes.map(() => null)
    : paneRegions(
        state.report,
        panes.map((p) => p.label),
      );
  const windows = panes.map((p) => paneFromCall(state.report, p.label) !== null);
  // one rule for the opening view and a finding's focus (focus.ts), so they never open on different steps: past the
  // step the compare leaves out (timelineNames.ts leftOutStep: a first step with later ones, none in an in-situ
  // window); a job's ranks have no compare: past a warm-up where one has it (warmUpStep)
  const { opening, leads } = stepLeads(
    state.panes.map((p) => (rankView ? p.timeline.warmUpStep : p.timeline.leftOutStep) !== null),
    regions.map((region, k) => (windows[k] ? `${region} in situ` : region)),
  );
  state.leads = leads;
  state.openingSteps = leads.map((lead) => opening + lead);
  // where none was saved, or the last load's own is still shown (a pane that came since may have a warm-up, review
  // 10 F2: `step`'s panes after TinyTransformer's opened on their warm-up): past the warm-up where a pane has one
  // (timelineNames.ts warmUpStep), else its first step
  state.step = view && !refit ? view.step : opening;
  state.stepBeforeAll = view?.all ? (state.stepBeforeAll ?? opening) : null;
  state.ranks = rankView;
  // a rank's wait in a collective said with the rank it waited for and, where its trace shows it, what that rank did
  // meanwhile (compiling, recording no op), on the job's one clock
  const alignment = rankView?.alignment;
  if (alignment?.mode === 'absolute') {
    let known: RankMarks[] | null = null;
    const ranks = (): RankMarks[] | null =>
      (known ??= rankMarksOf(
        state.panes.map((q) => q.timeline),
        rankView!.heads.map((head) => head?.rank ?? null),
        alignment.shiftUs,
      ));
    state.panes.forEach((pane, p) => {
      pane.timeline.waitedFor = (fromUs, toUs) => {
        const found = ranks() && waitedRank(ranks()!, p, fromUs, toUs);
        if (found === LAST_TO_ARRIVE) return found;
        return found ? waitedFor(found.rank, found.cause, found.unrecordedUs ?? null) : null;
      };
      // (when that rank reached the collective: the wait for it ends there, the rest is the collective's own)
      pane.timeline.waitedUntil = (fromUs, toUs) => {
        const found = ranks() && waitedRank(ranks()!, p, fromUs, toUs);
        return found && found !== LAST_TO_ARRIVE ? arrivedAt(ranks()!, p, found.rank, fromUs, toUs) : null;
      };
    });
  }
  // a preview has none: the full trace brings them
  for (const pane of state.panes)
    for (const warning of pane.timeline.model.warnings) app.append(el('p', 'warning', `${pane.label}: ${warning}`));

  if (state.ranks)
    app.append(
      renderRankNote(state.ranks, () => {
        state.showAllRanks = true;
        if (state.opening) load(state.opening);
      }),
    );
  app.append(renderToolbar());
  const panesBox = el('div', 'panes');
  panesBox.tabIndex = 0;
  state.panes.forEach((pane, p) => {
    const box = el('div', 'pane');
    const { events, preview } = panes[p]!;
    // a preview's track with no slice in it may have some outside it: its count waits for the full load
    const hidden = preview ? 0 : pane.timeline.hiddenTracks;
    const title = paneTitle(pane.label, events, pane.timeline.model.steps, hidden, preview);
    // the canvas under its Python stacks' fold buttons (timelineStacks.ts)
    const drawn = el('div', 'pane-canvas');
    drawn.append(
      pane.timeline.canvas,
      stackToggles(pane.timeline, () => scheduleDraw()),
    );
    const label = el('div', 'pane-label', title);
    // (the steps its rank came last to a collective in, once the job's waits are known: drawFrame.ts)
    label.append(el('span', 'pane-came-last'), pinnedHint(box));
    box.append(label, el('div', 'pane-note hint'), drawn);
    panesBox.append(box);
  });
  app.append(panesBox);
  const toCome = message.count - message.panes.length;
  if (toCome > 0) app.append(el('p', 'hint traces-pending', readingTraces(toCome, true)));
  if (state.ranks?.table)
    app.append(
      renderRankSteps(
        state.ranks.table,
        state.panes.map((p) => p.label),
        (step) => changeStep(step - state.step),
      ),
    );
  else if (state.ranks)
    app.append(
      el('p', 'hint compare-pending', 'The per-step communication table appears when the traces have fully loaded.'),
    );
  const details = el('div', 'details-box');
  details.append(
    el('p', 'hint timeline-help', timelineHelp(state.panes.some((p) => p.timeline.model.tracks.some((t) => t.gpu)))),
  );
  app.append(details);
  const rangeBox = el('div', 'range-box');
  app.append(rangeBox);
  const tooltip = el('div', 'tooltip');
  tooltip.hidden = true;
  app.append(tooltip);

  state.comparisons = [];
  if (partial && state.panes.length > 1 && !state.ranks) {
    app.append(el('p', 'hint compare-pending', comparisonPending));
  } else {
    for (let p = 1; p < state.panes.length; p++) {
      const { compareTo } = panes[p]!;
      const base = compareTo ?? 0;
      if (compareTo === null || base < 0 || base >= p) continue;
      const comparison = compareTraces(models[base]!, models[p]!, {
        before: state.panes[base]!.label,
        after: state.panes[p]!.label,
      });
      state.comparisons.push({
        before: state.panes[base]!.label,
        after: state.panes[p]!.label,
        rows: comparison.rows.map((r) => ({ metric: r.metric, before: r.before, after: r.after })),
      });
      const [before, after] = [state.panes[base]!.timeline, state.panes[p]!.timeline];
      app.append(
        renderComparison(
          state.panes[base]!.label,
          state.panes[p]!.label,
          comparison,
          { before: (name) => before.sayName(name), after: (name) => after.sayName(name) },
          paneBreaks(state.report, state.panes[p]!.label)?.length ?? 0,
        ),
      );
    }
  }

  input.wire(panesBox, details, tooltip);
  alignPanes();
  if (view) {
    // before the zoom below saves the state, so a carried selection is saved with it
    const { now: selection, later } = restoredSelection(
      view.selected,
      state.panes.map((p) => p.preview),
      replaced,
      models,
    );
    if (later) state.carried = later;
    if (refit) input.fitStep(panesBox);
    else input.restore(panesBox, view.domain);
    if (state.search) applySearch(state.search);
    if (selection) selectSlice(selection.pane, selection.slice, details);
  } else {
    input.fitStep(panesBox);
  }
  state.fitted = refit ? state.current.domain() : null;
  if (searchFocused) document.querySelector<HTMLElement>('.search')?.focus();
  if (keptRange && keptRange.pane < state.panes.length) ranges.set(keptRange.pane, keptRange.from, keptRange.to, true);
  if (replaced) window.scrollTo(window.scrollX, scrollY);
  state.shown++;
  markPinnedTitles();
  if (state.focus && !partial) applyFocus(state.focus);
}

function renderToolbar(): HTMLElement {
  const bar = el('div', 'toolbar');
  const search = document.createElement('vscode-textfield');
  search.placeholder = 'Search slice names';
  search.className = 'search';
  search.value = state.search;
  const matches = el('span', 'matches');
  search.addEventListener('input', () => applySearch(search.value));
  const fit = document.createElement('vscode-button');
  fit.textContent = 'Fit to step';
  fit.addEventListener('click', () => input.fitStep(document.querySelector('.panes')!));
  const fitAll = document.createElement('vscode-button');
  fitAll.textContent = 'Fit all';
  fitAll.setAttribute('secondary', '');
  fitAll.addEventListener('click', () => input.fitAllTime(document.querySelector('.panes')!));
  const prev = document.createElement('vscode-button');
  prev.textContent = '◀ step';
  prev.setAttribute('secondary', '');
  prev.addEventListener('click', () => changeStep(-1));
  const next = document.createElement('vscode-button');
  next.textContent = 'step ▶';
  next.setAttribute('secondary', '');
  next.addEventListener('click', () => changeStep(1));
  const legend = el('span', 'legend');
  for (const [kind, label] of kindLegend(state.panes.map((p) => p.timeline.model)))
    legend.append(swatchEntry(kind, label));
  if (state.panes.some((p) => p.communication)) legend.append(communicationLegend());
  bar.append(search, matches, fit, fitAll, prev, next, legend);
  // what the panel scrolls to stops below the toolbar however many lines it wraps to (styles.ts scroll-margin-top)
  new ResizeObserver(() =>
    document.documentElement.style.setProperty('--toolbar-height', `${bar.offsetHeight}px`),
  ).observe(bar);
  return bar;
}

function applySearch(query: string): void {
  state.search = query;
  for (const pane of state.panes) pane.timeline.search(query);
  const matches = document.querySelector('.matches');
  if (matches)
    matches.textContent = state.search
      ? matchingSlices(state.panes.reduce((n, p) => n + p.timeline.matchingSlices().length, 0))
      : '';
  scheduleDraw();
  saveState();
}

function changeStep(delta: number): void {
  const [first, last] = stepBounds(
    state.leads,
    state.panes.map((p) => p.timeline.model.steps.length),
  );
  // from the step the view was on before Fit all, where it was
  state.step = Math.min(Math.max(first, (state.stepBeforeAll ?? state.step) + delta), last);
  state.stepBeforeAll = null;
  // the user's step now: a trace that comes later keeps it
  state.fitted = null;
  alignPanes();
  input.fitStep(document.querySelector('.panes')!);
}

/** Each pane on its step (paneSteps.ts): the view's, or after Fit all its first. */
function alignPanes(): void {
  alignSteps(
    state.panes,
    state.ranks?.alignment ?? null,
    state.stepBeforeAll === null ? state.step : null,
    state.leads,
  );
}

/**
 * Selecting a launch draws arrows to its kernels (a cudaGraphLaunch fans out to many), a kernel from its launch,
 * a CPU op through the launches in it; the details list them, each a link that follows the arrow.
 */
function selectSlice(pane: number, slice: number, details: HTMLElement): void {
  for (const view of state.panes) {
    view.timeline.selected = -1;
    view.timeline.linked = [];
    view.timeline.arrows = [];
  }
  state.selected = slice >= 0 ? { pane, slice } : null;
  state.carried = null;
  details.replaceChildren();
  if (slice >= 0) {
    const timeline = state.panes[pane]!.timeline;
    timeline.selected = slice;
    const links = flowLinks(timeline.model, slice);
    timeline.arrows = links.arrows;
    timeline.linked = linkedSlices(links, slice);
    details.append(
      renderDetails(
        timeline.model,
        slice,
        (nameId) => timeline.sliceName(nameId),
        timeline.linked,
        links.more,
        state.panes[pane]!.label,
        // to the axis's 0, at a detail's precision (the axis's own rounding, set by the zoom when clicked, reads "1 ms")
        formatUs(timeline.model.start[slice]! - timeline.offset),
        (j) => revealSlice(pane, j, details),
      ),
    );
    const source = renderKernelSource(
      timeline.model,
      slice,
      timeline.linked,
      state.report,
      state.panes[pane]!.label,
      (file, line, cell) => post({ type: 'reveal', file, line, ...(cell === null ? {} : { cell }) }),
      (mode, compileId, codeLine) => post({ type: 'openGeneratedCode', mode, compileId, codeLine }),
    );
    if (source) details.append(source);
  }
  scheduleDraw();
  saveState();
}

/** The selected slice's details said again, its name citing the lines where the user's edits moved them. */
function linesMovedInDetails(): void {
  const details = document.querySelector<HTMLElement>('.details-box');
  if (state.selected && details) selectSlice(state.selected.pane, state.selected.slice, details);
}

/** Selects a slice and brings it into view (an arrow followed, a range row chosen): the zoom is kept unless it is off screen. */
function revealSlice(pane: number, slice: number, details: HTMLElement): void {
  const timeline = state.panes[pane]!.timeline;
  // a step view draws its step alone: a slice of another step is shown on that step
  const step = stepHolding(timeline.model.steps, timeline.model.start[slice]!);
  if (timeline.shownStep !== null && step >= 0 && step !== timeline.shownStep) {
    state.step = step - (state.leads[pane] ?? 0);
    alignPanes();
  }
  // on the shared axis: the pane's times stretched by its region's fit (paneFit.ts)
  const start = (timeline.model.start[slice]! - timeline.offset) * timeline.stretch;
  const end = start + timeline.model.dur[slice]! * timeline.stretch;
  const [t0, t1] = state.current.domain() as [number, number];
  if (start < t0 || end > t1) {
    const half = Math.max((t1 - t0) / 2, (end - start) * 0.6);
    input.zoomTo((start + end) / 2 - half, (start + end) / 2 + half);
  }
  selectSlice(pane, slice, details);
  // the pane with its title, not the canvas alone: its title would sit under the sticky toolbar (review 5C L5)
  (timeline.canvas.closest('.pane') ?? timeline.canvas).scrollIntoView({ block: 'nearest' });
}

/** A pane time as the panes' axis says it now. */
function onAxis(us: number): string {
  return axisTime(us, state.current, state.current.range()[1]!);
}

/** "Show in timeline" of a finding, once the full load is in (focus.ts). */
function applyFocus(target: TimelineTarget): void {
  state.focus = null;
  state.focusFound = showTarget(
    target,
    state.panes,
    state.openingSteps,
    state.ranks ? 'warm-up' : 'left out',
    (step, pane) => {
      state.step = step - (state.leads[pane] ?? 0);
      state.stepBeforeAll = null;
      alignPanes();
    },
    (from, to) => input.zoomTo(from, to),
  );
  scheduleDraw();
}

exposeDebugView(state, ranges);
window.addEventListener('scroll', markPinnedTitles, { passive: true });

// Where the view will open, so the host's preview of a big trace covers it.
const opening = savedState()?.view;
post({ type: 'ready', view: opening ? { step: opening.step, domain: opening.domain } : null });
