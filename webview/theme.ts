// Slice colours from the VS Code theme (--vscode-* variables), re-read when the theme changes.
import { SLICE_KIND_COUNT, SliceKind, type TraceModel } from '../extension/shared/trace/model.ts';
import { labelledFill } from './ink.ts';

/** CSS variable and a fallback (for a page outside VS Code) per SliceKind. */
const KIND_VARIABLES: [string, string][] = [
  ['--vscode-charts-blue', '#3794ff'], // CpuOp
  // not charts-yellow: beside charts-orange (ATen native) the two read as one colour in every default theme
  ['--vscode-terminal-ansiBrightYellow', '#f5f543'], // RuntimeLaunch
  ['--vscode-charts-green', '#388a34'], // KernelGenerated
  ['--vscode-charts-purple', '#b180d7'], // KernelExtern
  ['--vscode-charts-orange', '#d18616'], // KernelAten
  ['--vscode-descriptionForeground', '#8b8b8b'], // Memory
  ['--vscode-terminal-ansiCyan', '#11a8cd'], // GraphReplay
  ['--vscode-editorWidget-border', '#606060'], // Step
  ['--vscode-charts-red', '#f14c4c'], // Compile
  ['--vscode-disabledForeground', '#6f6f6f'], // Other
];

/** Collective communication (NCCL/gloo), coloured by name over its kind (communication.ts). */
const COMMUNICATION_VARIABLE: [string, string] = ['--vscode-terminal-ansiMagenta', '#d670d6'];

export interface Theme {
  kind: string[];
  communication: string;
  foreground: string;
  background: string;
  muted: string;
  selection: string;
  /** graph breaks on the timeline and a finding's places */
  warning: string;
  /** high-contrast themes outline every slice */
  border: string | null;
  font: string;
}

function cssVariable(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

/** The colour behind the page's text: the body's, else the root's, else a browser's default white. */
function pageBackground(body: CSSStyleDeclaration): string {
  const opaque = (colour: string): boolean =>
    colour !== '' && colour !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(colour);
  const root = getComputedStyle(document.documentElement).backgroundColor;
  return opaque(body.backgroundColor) ? body.backgroundColor : opaque(root) ? root : '#ffffff';
}

export function readTheme(): Theme {
  const style = getComputedStyle(document.body);
  // outside VS Code (a browser, a bare page: no --vscode-* variables) the page's own text and background colours
  const background = cssVariable(style, '--vscode-editor-background', pageBackground(style));
  // each fill one a slice's label reads on (ink.labelledFill: the dark theme's mid-grey is darkened)
  const fill = (colour: string): string => labelledFill(colour, background);
  const kind = KIND_VARIABLES.map(([name, fallback]) => fill(cssVariable(style, name, fallback)));
  if (kind.length !== SLICE_KIND_COUNT) throw new Error('a colour per SliceKind');
  const highContrast =
    document.body.classList.contains('vscode-high-contrast') ||
    document.body.classList.contains('vscode-high-contrast-light');
  return {
    kind,
    communication: fill(cssVariable(style, ...COMMUNICATION_VARIABLE)),
    foreground: cssVariable(style, '--vscode-editor-foreground', style.color || '#000000'),
    background,
    muted: cssVariable(style, '--vscode-descriptionForeground', '#8b8b8b'),
    selection: cssVariable(style, '--vscode-focusBorder', '#007fd4'),
    warning: cssVariable(style, '--vscode-editorWarning-foreground', '#cca700'),
    border: highContrast ? cssVariable(style, '--vscode-contrastBorder', '#6fc3df') : null,
    font: `11px ${cssVariable(style, '--vscode-font-family', 'system-ui, sans-serif')}`,
  };
}

/** Legend entries: kind, label on a GPU run, label on a CPU-only run. */
export const KIND_LEGEND: [SliceKind, string, string][] = [
  [SliceKind.KernelGenerated, 'generated (Triton/Inductor)', 'generated (Inductor C++)'],
  [SliceKind.KernelExtern, 'library (cuBLAS/cuDNN/CUTLASS)', 'library (oneDNN/MKL)'],
  [SliceKind.KernelAten, 'ATen native', 'ATen native'],
  [SliceKind.Memory, 'memcpy/memset', 'memcpy/memset'],
  [SliceKind.GraphReplay, 'CUDA-graph replay', 'CUDA-graph replay'],
  [SliceKind.RuntimeLaunch, 'runtime launch', 'runtime launch'],
  [SliceKind.CpuOp, 'CPU op', 'CPU op'],
  [SliceKind.Compile, 'compile', 'compile'],
];

/** The legend of these traces: only the kinds they hold, in CPU words when none has a GPU track. */
export function kindLegend(models: readonly TraceModel[]): [SliceKind, string][] {
  const present = new Set<number>();
  for (const model of models) for (let i = 0; i < model.count; i++) present.add(model.kind[i]!);
  const gpu = models.some((m) => m.tracks.some((t) => t.gpu));
  return KIND_LEGEND.filter(([kind]) => present.has(kind)).map(([kind, onGpu, onCpu]) => [kind, gpu ? onGpu : onCpu]);
}

/** Legend swatch colours: the same variables as the canvas. */
export function kindSwatchCss(): string {
  return [
    ...KIND_VARIABLES.map(([name, fallback], kind) => `.kind-${kind} { background: var(${name}, ${fallback}); }`),
    `.kind-communication { background: var(${COMMUNICATION_VARIABLE[0]}, ${COMMUNICATION_VARIABLE[1]}); }`,
  ].join('\n');
}
