// The page's one handle on VS Code (acquireVsCodeApi answers once per page): messages to the host, and the view kept
// with VS Code across hide/show and restarts (savedView.ts: what it holds and how a selection is found again).
import type { WebviewToHost } from '../extension/shared/protocol.ts';
import type { SavedState } from './savedView.ts';
import { state } from './viewState.ts';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: SavedState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

export const post = (message: WebviewToHost): void => vscode.postMessage(message);

/** The view as it is now (domain, step, search, selection), kept for the next load of the same source. */
export function saveState(): void {
  const [t0, t1] = state.current.domain() as [number, number];
  const selected = state.selected
    ? { ...state.selected, partial: state.panes[state.selected.pane]!.preview }
    : state.carried;
  vscode.setState({
    source: state.source,
    view: state.panes.length
      ? { domain: [t0, t1], step: state.step, search: state.search, selected, all: state.stepBeforeAll !== null }
      : null,
  });
}

export function savedState(): SavedState | null {
  const saved = vscode.getState() as SavedState | null | undefined;
  return saved && typeof saved === 'object' ? saved : null;
}
