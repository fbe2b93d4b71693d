// What the timeline keeps across hide/show (VS Code's webview state) and how a saved selection finds its slice again.
import type { TimelineSource } from '../extension/shared/protocol.ts';
import type { TraceModel } from '../extension/shared/trace/model.ts';
import { sameSlice } from '../extension/shared/trace/window.ts';

/** Kept by VS Code across hide/show; `source` is what the host's serializer reopens after a restart. */
export interface SavedState {
  source: TimelineSource | null;
  /** `all`: the whole traces' view (Fit all), not a step's */
  view: {
    domain: [number, number];
    step: number;
    search: string;
    selected: SavedSelection | null;
    all?: boolean;
  } | null;
}

/** `partial`: the slice indexes a preview's model (only that preview, while it is in memory, can map it). */
export interface SavedSelection {
  pane: number;
  slice: number;
  partial?: boolean;
}

interface Slice {
  pane: number;
  slice: number;
}
/** `now`: select it; `later`: a full model's selection kept while a preview shows. */
interface Restored {
  now: Slice | null;
  later: Slice | null;
}
const NONE: Restored = { now: null, later: null };

/**
 * The slice of the new models that the saved selection is (`preview`: which of them hold only a preview). One made
 * on a preview being replaced is found by sameSlice (none when it is not in the new models); one of a full model
 * applies to a full model as is and waits (`later`) while its pane shows a preview or is still to come; one of a
 * preview that is gone (the webview was rebuilt) is dropped.
 */
export function restoredSelection(
  saved: SavedSelection | null,
  preview: boolean[],
  replaced: TraceModel[] | null,
  models: TraceModel[],
): Restored {
  if (!saved || saved.pane < 0 || saved.slice < 0) return NONE;
  const { pane } = saved;
  if (saved.partial) {
    const from = replaced?.[pane];
    const to = models[pane];
    if (!from || !to || saved.slice >= from.count) return NONE;
    const slice = sameSlice(from, saved.slice, to);
    return { now: slice >= 0 ? { pane, slice } : null, later: null };
  }
  const model = models[pane];
  if (!model || preview[pane]) return { now: null, later: { pane, slice: saved.slice } };
  return { now: saved.slice < model.count ? { pane, slice: saved.slice } : null, later: null };
}
