// The webview's stylesheet, and its injection (main.ts at start) in a <style> carrying the bundle's nonce.
import { kindSwatchCss } from './theme.ts';

const STYLES = `
body { font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 13px); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 12px 24px; }
h1 { font-size: 1.3em; font-weight: 600; margin: 12px 0 8px; }
h2 { font-size: 1.15em; margin: 8px 0; }
h3 { font-size: 1.05em; margin: 10px 0 6px; }
h4 { font-size: 1em; margin: 8px 0 4px; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 2px 10px 2px 0; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
/* Text stays in the theme's foreground (theme colours such as errorForeground fall below 4.5:1 on a light editor);
   colour marks the edge, and words say what it means: the runner's word after a speedup ("faster", "too noisy to
   say": data-said, panels.ts speedupCell), "failed:" in an error. */
td[data-said]::after { content: " (" attr(data-said) ")"; color: var(--vscode-descriptionForeground); }
.faster { border-left: 3px solid var(--vscode-charts-green, #388a34); padding-left: 4px; }
.slower, .error { border-left: 3px solid var(--vscode-errorForeground, #f48771); padding-left: 4px; }
.warning, .compile-warning { border-left: 3px solid var(--vscode-editorWarning-foreground, #cca700); padding-left: 4px; margin: 4px 0; }
.term { text-decoration: underline dotted; text-underline-offset: 2px; cursor: help; }
.hint { color: var(--vscode-descriptionForeground); }
button.link { background: none; border: none; padding: 0; color: var(--vscode-textLink-foreground); cursor: pointer; font: inherit; text-decoration: underline; }
button.link:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.toolbar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; position: sticky; top: 0; z-index: 2; background: var(--vscode-editor-background); padding: 4px 0; }
.toolbar .search { width: 260px; }
.matches { color: var(--vscode-descriptionForeground); min-width: 8em; }
.legend { display: inline-flex; flex-wrap: wrap; gap: 4px 6px; align-items: center; }
.swatch { display: inline-block; width: 10px; height: 10px; border: 1px solid var(--vscode-contrastBorder, transparent); }
.legend-label { margin-right: 6px; color: var(--vscode-descriptionForeground); }
.panes { outline: none; cursor: grab; user-select: none; }
.panes:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.pane { border-top: 1px solid var(--vscode-panel-border, #80808059); margin-bottom: 6px; }
/* a pane scrolled part under the toolbar keeps its title in view right below it, no gap for what scrolls to show
   through cut in half (review 5C L5, 9 E9) */
.pane-label { font-weight: 600; padding: 4px 0; position: sticky; top: var(--toolbar-height, 56px); z-index: 1; background: var(--vscode-editor-background); }
.pane-label .pinned-hint { display: none; font-weight: normal; color: var(--vscode-descriptionForeground); cursor: pointer; }
.pane-label.pinned { border-bottom: 1px dashed var(--vscode-descriptionForeground); }
.pane-label.pinned .pinned-hint { display: inline; }
/* a Python stack's fold button lies over its name, which the canvas draws: only its focus ring shows */
.pane-canvas { position: relative; }
.stack-toggle { position: absolute; left: 0; margin: 0; padding: 0; border: 0; background: transparent; cursor: pointer; }
.stack-toggle:focus-visible { outline: 1px solid var(--vscode-focusBorder, #007fd4); outline-offset: -1px; }
canvas { display: block; }
.details-box { margin-top: 8px; }
.details h3, .raw-fields td { overflow-wrap: anywhere; }
.raw-fields summary { cursor: pointer; color: var(--vscode-descriptionForeground); margin: 4px 0; }
.facts th { color: var(--vscode-descriptionForeground); font-weight: normal; }
.range-box section { margin-top: 12px; }
/* scrolled to: below the sticky toolbar, as tall as it wraps (main.ts sets --toolbar-height); a pane from its
   title, so that neither its title nor its axis is under the toolbar; the panes (a screenshot of them) from the first
   one's: rank 0's steps note and axis were under it (review 9 C9/D11/E9) */
.range-box section, .focus-note, .details-box, .pane, .panes { scroll-margin-top: calc(var(--toolbar-height, 56px) + 4px); }
.range-table { margin: 6px 0 12px; }
.range-table caption { text-align: left; font-weight: 600; padding: 2px 0; }
.range-table td.name { overflow-wrap: anywhere; max-width: 640px; } /* between words; inside one only where it is wider than the line */
.nowrap { white-space: nowrap; }
.range-table tbody tr:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
.range-table tbody tr:hover { background: var(--vscode-list-hoverBackground, #80808020); }
button.sort { background: none; border: none; padding: 0; color: var(--vscode-foreground); font: inherit; font-weight: 600; cursor: pointer; }
button.sort:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
th[aria-sort="ascending"] button.sort::after { content: " ▲"; }
th[aria-sort="descending"] button.sort::after { content: " ▼"; }
.focus-note { margin: 6px 0; padding: 4px 8px; border-left: 3px solid var(--vscode-editorWarning-foreground, #cca700); background: var(--vscode-textBlockQuote-background, #80808014); }
ul.linked, ul.kernels { margin: 4px 0; padding-left: 18px; overflow-wrap: anywhere; } /* between words; inside one only where it is wider than the line (report3B M8: "20. / 9 µs") */
ul.linked a.follow { color: var(--vscode-textLink-foreground); text-decoration: underline; cursor: pointer; }
ul.linked a.follow:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.tooltip { position: fixed; z-index: 10; pointer-events: none; white-space: pre-wrap; max-width: min(480px, calc(100vw - 24px)); overflow-wrap: anywhere; left: 0; top: 0; padding: 4px 6px; background: var(--vscode-editorHoverWidget-background, #252526); color: var(--vscode-editorHoverWidget-foreground, inherit); border: 1px solid var(--vscode-editorHoverWidget-border, #454545); }
.compare { margin-top: 12px; }
.compare-table th.part { padding-left: 1.5em; }
.compare-table td.not-compared { color: var(--vscode-descriptionForeground); font-style: italic; } /* the profiled step's change: no % (issue 44) */
.regions { margin: 8px 0 16px; }
.region { border-top: 1px solid var(--vscode-panel-border, #80808059); padding: 6px 0 10px; }
.region-facts, .not-measured { color: var(--vscode-descriptionForeground); margin: 4px 0; }
.story { margin: 6px 0; max-width: 960px; }
.region-chart { max-width: 540px; } /* regionChart.ts WIDTH: drawn at its size, never shrunk below it in a narrow panel */
.region-chart svg { display: block; width: 100%; height: auto; color: var(--vscode-descriptionForeground); }
.region-chart .axis-label { fill: currentColor; font-size: 11px; }
.region-chart .axis { font-size: 11px; }
/* the steady state's band, and its legend swatch alike: told from the page (12 % was 1.17:1 on high contrast's black,
   review 6B I), light enough that the marks and the label on it read */
.steady { fill: var(--vscode-charts-green, #89d185); fill-opacity: 0.2; }
.vscode-high-contrast .steady { fill-opacity: 0.35; }
.region-chart .steady-median { stroke: var(--vscode-charts-green, #89d185); stroke-dasharray: 4 3; }
.region-chart .steady-label { fill: var(--vscode-foreground); font-size: 11px; }
.run { fill: none; stroke-width: 1.5; }
.run.compiled, .in-situ .steady-median.compiled { stroke: var(--vscode-charts-orange, #d18616); }
.run.eager, .in-situ .steady-median.eager { stroke: var(--vscode-charts-blue, #75beff); }
.in-situ-lines, .cuda-graphs { margin: 4px 0; white-space: pre-wrap; }
.no-compiled-code { margin: 4px 0; font-weight: 600; }
.situ-mark { fill: var(--vscode-charts-orange, #d18616); stroke: var(--vscode-editor-background); }
.situ-point.counted.compiled { fill: var(--vscode-charts-orange, #d18616); }
.situ-point.counted.eager { fill: var(--vscode-charts-blue, #75beff); }
.situ-point.left-out { fill: var(--vscode-editor-background, #fff); stroke: var(--vscode-descriptionForeground, #717171); stroke-width: 1.2; }
.chart-whose { margin: 4px 0; color: var(--vscode-descriptionForeground); }
.mark.cached { fill: var(--vscode-charts-blue, #75beff); }
.mark.compiled { fill: var(--vscode-charts-orange, #d18616); stroke: var(--vscode-editor-background); }
.mark.recompiled { fill: var(--vscode-charts-red, #f14c4c); stroke: var(--vscode-editor-background); }
.mark.eager { fill: none; stroke: var(--vscode-charts-purple, #b180d7); stroke-width: 2; }
/* in situ's compiling-off calls: the step chart's eager colour, hollow (apart from "compiled code reused") */
.mark.switched-off { fill: none; stroke: var(--vscode-charts-blue, #75beff); stroke-width: 1.5; }
.chart-legend { margin-bottom: 8px; display: flex; flex-wrap: wrap; gap: 4px 6px; align-items: center; font-size: 0.9em; }
.legend-entry { white-space: nowrap; display: inline-flex; align-items: center; gap: 4px; }
.legend-note { flex-basis: 100%; }
.region-chart svg.legend-icon { display: inline-block; width: 14px; height: 14px; overflow: visible; }
.table-scroll { overflow-x: auto; }
.rank-note p { margin: 2px 0; }
/* a long column title wraps, not its numbers: the table fits an editor-wide panel with its notes (review 13 O4:
   the notes column ran past the panel's edge at 1150 px); narrower, the box scrolls rather than clips */
.rank-table td { white-space: nowrap; }
.rank-table th { white-space: normal; vertical-align: bottom; }
.rank-table td.inputs { white-space: normal; min-width: 14em; max-width: 420px; }
/* the row, not each cell: stacked cells leave gaps between them; in high contrast (no warning background) its border */
.rank-table tr.diverged { background: var(--vscode-inputValidation-warningBackground, #cca70026); outline: 1px dashed var(--vscode-contrastBorder, transparent); }
.rank-table tr.diverged td.rank { font-weight: 600; border-left: 3px solid var(--vscode-editorWarning-foreground, #cca700); }
.rank-table tr.error td.rank { border-left: 3px solid var(--vscode-errorForeground, #f48771); }
.rank-steps { margin-top: 10px; }
.rank-steps .hint { max-width: 960px; }
.rank-steps-table td, .rank-steps-table th { white-space: nowrap; }
.rank-steps-table td.slowest-rank { white-space: normal; min-width: 16em; } /* a sentence: wrapped, not scrolled */
.rank-steps-table tr[data-pane="0"] > * { border-top: 1px solid var(--vscode-panel-border, #80808059); }
.rank-steps-table tr.slowest td { font-weight: 600; }
.region-measurements td, .region-measurements th { white-space: nowrap; }
.region-measurements td.inputs { white-space: normal; min-width: 14em; max-width: 420px; }
/* a failure or a note is a sentence: it wraps inside the table, not past the panel's edge */
.region-measurements td.error, .region-measurements td.note { white-space: normal; }
/* a narrow panel (beside the editor): each row becomes a block, its cells wrap with their column's name */
@media (max-width: 760px) {
  table.stacks, table.stacks tbody, table.stacks tr { display: block; }
  table.stacks tr:first-child { display: none; }
  table.stacks tr { border-top: 1px solid var(--vscode-panel-border, #80808059); padding: 4px 0; }
  table.stacks td { display: inline-block; white-space: nowrap; margin-right: 1.2em; padding: 1px 0; }
  table.stacks td.inputs { display: block; min-width: 0; max-width: none; white-space: normal; }
  /* "graphs 1 · graph breaks 2": each value bold after its column's name, so pairs do not run together */
  table.stacks td[data-label] { font-weight: 600; }
  table.stacks td[data-label]::before { content: attr(data-label) " "; color: var(--vscode-descriptionForeground); font-weight: normal; }
  table.stacks td.rank::before { content: none; } /* "rank 1" names itself: no "rank rank 1" */
  table.stacks td:empty { display: none; }
}
.kernel-source { margin-top: 6px; }
.kernel-source pre.source-line { margin: 2px 0; font-family: var(--vscode-editor-font-family, monospace); color: var(--vscode-descriptionForeground); white-space: pre-wrap; }
.kernel-source .open-code { margin-top: 6px; }
.compile-timeline { margin: 8px 0; }
.compile-phases summary { cursor: pointer; font-weight: 600; margin: 4px 0; }
.phase-rows { display: grid; grid-template-columns: fit-content(40%) 1fr; }
.phase-row { display: grid; grid-column: 1 / -1; grid-template-columns: subgrid; align-items: start; border-top: 1px solid var(--vscode-panel-border, #80808033); }
/* wraps between words ("· recompile" is never cut); a word longer than the column ends in "…", whole in the hover */
.phase-label { padding: 1px 6px 1px 0; min-width: 0; overflow: hidden; text-overflow: ellipsis; color: var(--vscode-descriptionForeground); }
.phase-track { display: block; overflow: visible; }
.phase-track text { font-size: 10px; fill: var(--vscode-editor-foreground, #ccc); pointer-events: none; }
/* A bar's colour is --bar, drawn opaque (charts-lines has alpha: its text would sit on whatever lies under it); its
   label is black or white, whichever reads better on it: relative luminance (xyz-d65's y) 0.179 is where both give
   the same WCAG contrast (4.58), so the label clears 4.5:1 on any theme's colour (lch's L* 49.4, the same point in
   theory, put black on Light Modern's charts-red at 4.43:1: review 14R R5) */
.phase rect { fill: rgb(from var(--bar) r g b / 1); }
.phase text {
  --white: clamp(0, (0.179 - y) * infinity, 1);
  fill: color(from var(--bar) xyz-d65 calc(var(--white) * 0.9505) var(--white) calc(var(--white) * 1.089) / 1);
}
.phase-axis .phase-track text { fill: var(--vscode-descriptionForeground); }
.phase.beside text { fill: var(--vscode-editor-foreground, currentColor); } /* beside its bar: on the page */
.phase-legend { margin-top: 6px; }
.phase-legend .swatch { background: rgb(from var(--bar) r g b / 1); }
/* the page-coloured edge that parts two bars lies under the fill: on a 1-2 px sliver a stroke over it left a dark line
   (review 14R R5) */
.phase rect { stroke: var(--vscode-editor-background); stroke-width: 0.5; paint-order: stroke; }
.phase-dynamo { --bar: var(--vscode-charts-blue, #3794ff); }
.phase-backend { --bar: var(--vscode-charts-lines, #8b8b8b); }
.phase-aot { --bar: var(--vscode-charts-purple, #b180d7); }
.phase-inductor { --bar: var(--vscode-charts-orange, #d18616); }
/* not charts-yellow: drawn under Inductor's orange it was ΔE 6 from it in Light Modern, 1 to a red-green colour-blind
   eye (review 5C X7); this dark teal is ΔE ≥ 16 from every other bar and the page in light, and from Inductor, the
   bars beside it and the cache marker on it under protan, deutan and tritan simulation too */
.phase-codegen { --bar: #225555; }
/* each bar stands out from the page at 3:1 (WCAG non-text contrast; test/webview/phaseContrast.test.ts): on a dark
   page the dark teal was 2:1 (review 14R R5); this grey teal is 3.8:1 on Dark Modern, 4.8:1 on black, ΔE ≥ 24 from
   every other bar and ≥ 18 from those beside it under protan, deutan and tritan simulation (a brighter teal was 12
   from the cache marker's cyan to a tritan eye). Light Modern's charts-orange on white was 2.9:1 */
.vscode-dark .phase-codegen, .vscode-high-contrast .phase-codegen { --bar: #608070; }
.vscode-light .phase-inductor { --bar: color-mix(in srgb, var(--vscode-charts-orange, #d18616) 88%, black); }
.phase-kernel { --bar: var(--vscode-charts-green, #388a34); }
.phase-autotune { --bar: var(--vscode-charts-red, #f14c4c); }
.phase-cache { --bar: var(--vscode-terminal-ansiCyan, #11a8cd); }
.phase-load { --bar: var(--vscode-terminal-ansiMagenta, #bc3fbc); }
.cache-marker path { stroke: var(--vscode-terminal-ansiCyan, #11a8cd); stroke-width: 1.5; }
.cache-hit path { fill: var(--vscode-terminal-ansiCyan, #11a8cd); }
.cache-miss path { fill: var(--vscode-editor-background, #1e1e1e); }
/* a speedup in the runner's words is a phrase ("1.19× per call replayed (1.12–1.26×)"): it wraps, wide or stacked */
.region-measurements td.said-number { white-space: normal; min-width: 12em; }
@media (max-width: 760px) { table.stacks td.said-number { display: block; white-space: normal; } }
/* the runner's indented lines under a line (in situ: why, the steady steps) as a list under it, not a stray indent */
.said-lines { margin: 4px 0; }
.said-lines ul { margin: 2px 0; padding-left: 1.4em; }
/* the compare of two runs (runCompare.ts): "before"/"after" beside what each run says, wrapping between words only */
.whole { white-space: nowrap; }
.compare-block { border-top: 1px solid var(--vscode-panel-border, #80808059); margin-top: 12px; }
.compare-sides { display: grid; grid-template-columns: max-content 1fr; gap: 2px 8px; margin: 4px 0; }
.compare-side { color: var(--vscode-descriptionForeground); }
.compare-change { display: block; margin: 4px 0; }
.compare-rows th { font-weight: normal; color: var(--vscode-descriptionForeground); white-space: nowrap; }
.compare-rows tr.compare-changed td { font-weight: 600; }
`;

/** Styles go in a <style> carrying the bundle's own nonce: the CSP allows no other inline style. */
export function injectStyles(): void {
  const style = document.createElement('style');
  const script = document.currentScript as HTMLScriptElement | null;
  style.nonce = script?.nonce ?? '';
  style.textContent = STYLES + kindSwatchCss();
  document.head.append(style);
}
