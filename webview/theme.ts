// Slice colours from the VS Code theme (--vscode-* variables), re-read when the theme changes.
import { SLICE_KIND_COUNT, SliceKind } from '../extension/core/trace/model.ts';

/** CSS variable and a fallback (for a page outside VS Code) per SliceKind. */
const KIND_VARIABLES: [string, string][] = [
  ['--vscode-charts-blue', '#3794ff'],          // CpuOp
  ['--vscode-charts-yellow', '#cca700'],        // RuntimeLaunch
  ['--vscode-charts-green', '#388a34'],         // KernelGenerated
  ['--vscode-charts-purple', '#b180d7'],        // KernelExtern
  ['--vscode-charts-orange', '#d18616'],        // KernelAten
  ['--vscode-descriptionForeground', '#8b8b8b'], // Memory
  ['--vscode-terminal-ansiCyan', '#11a8cd'],    // GraphReplay
  ['--vscode-editorWidget-border', '#606060'],  // Step
  ['--vscode-charts-red', '#f14c4c'],           // Compile
  ['--vscode-disabledForeground', '#6f6f6f'],   // Other
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
  /** high-contrast themes outline every slice */
  border: string | null;
  font: string;
}

function cssVariable(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

export function readTheme(): Theme {
  const style = getComputedStyle(document.body);
  const kind = KIND_VARIABLES.map(([name, fallback]) => cssVariable(style, name, fallback));
  if (kind.length !== SLICE_KIND_COUNT) throw new Error('a colour per SliceKind');
  const highContrast = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    kind,
    communication: cssVariable(style, ...COMMUNICATION_VARIABLE),
    foreground: cssVariable(style, '--vscode-editor-foreground', '#cccccc'),
    background: cssVariable(style, '--vscode-editor-background', '#1e1e1e'),
    muted: cssVariable(style, '--vscode-descriptionForeground', '#8b8b8b'),
    selection: cssVariable(style, '--vscode-focusBorder', '#007fd4'),
    border: highContrast ? cssVariable(style, '--vscode-contrastBorder', '#6fc3df') : null,
    font: `11px ${cssVariable(style, '--vscode-font-family', 'system-ui, sans-serif')}`,
  };
}

export const KIND_LEGEND: [SliceKind, string][] = [
  [SliceKind.KernelGenerated, 'generated (Triton/Inductor)'],
  [SliceKind.KernelExtern, 'library (cuBLAS/cuDNN/CUTLASS)'],
  [SliceKind.KernelAten, 'ATen native'],
  [SliceKind.Memory, 'memcpy/memset'],
  [SliceKind.GraphReplay, 'CUDA-graph replay'],
  [SliceKind.RuntimeLaunch, 'runtime launch'],
  [SliceKind.CpuOp, 'CPU op'],
  [SliceKind.Compile, 'compile'],
];

/** Legend swatch colours: the same variables as the canvas. */
export function kindSwatchCss(): string {
  return [...KIND_VARIABLES.map(([name, fallback], kind) => `.kind-${kind} { background: var(${name}, ${fallback}); }`),
    `.kind-communication { background: var(${COMMUNICATION_VARIABLE[0]}, ${COMMUNICATION_VARIABLE[1]}); }`].join('\n');
}
