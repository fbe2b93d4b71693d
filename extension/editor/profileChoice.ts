// What "Compile & Profile Model" profiles, decided from the active file alone: its compile target, the file run as
// a script (it calls torch.compile), a choice between them, or, when it has neither, an explanation of what the
// command needs with the samples offered by name. It never profiles something else silently.
import { findCompileSites, findCompileSitesInCells } from './compileSites.ts';
import { baseName } from '../shared/fileName.ts';
import type { RunTarget } from '../shared/runnerProtocol.ts';
import { findTargetFunctions } from './targets.ts';
import { plural } from '../present/numbers.ts';

/** The active editor's content: a saved Python file, or a notebook's cells in order (markdown cells as ''). */
export type ActiveSource =
  { kind: 'python'; file: string; text: string } | { kind: 'notebook'; file: string; cells: string[] };

export interface ChoiceOption {
  label: string;
  description?: string;
  target: RunTarget;
}

export type ProfileChoice =
  | { kind: 'run'; target: RunTarget }
  /** a QuickPick */
  | { kind: 'pick'; placeHolder: string; options: ChoiceOption[] }
  /** a dialog: `message` and `detail`, one button per option */
  | { kind: 'explain'; message: string; detail: string; options: ChoiceOption[] };

/** The runner's built-in samples (target/samples/__init__.py NAMES, package.json's compileLens.defaultSample), the
 *  default first: a model whose fused pointwise work makes compiling pay even on a CPU. */
export const SAMPLES = ['gatedblock', 'mlp', 'localopt', 'graphbreak', 'recompile'] as const;
export const DEFAULT_SAMPLE = SAMPLES[0];

export const TARGET_EXAMPLE = [
  'def compile_target():',
  '    model = MyModel().eval()',
  '    return model, (torch.randn(32, 512),)',
].join('\n');

const EXPLANATION = [
  'Compile Lens profiles one of these:',
  '',
  '• A script or notebook that calls torch.compile: it runs unmodified, and every compiled model or function is timed against eager on the inputs the script really used.',
  '',
  '• A compile target: a top-level function named compile_target (or with a "# compile-lens: target" comment above it) that returns the model and example inputs:',
  '',
  TARGET_EXAMPLE.split('\n')
    .map((line) => `    ${line}`)
    .join('\n'),
  '',
  '• A built-in sample.',
].join('\n');

function scriptOption(file: string, sites: number, label = 'Run the whole script'): ChoiceOption {
  return {
    label,
    description: `${baseName(file)}: ${plural(sites, 'torch.compile call')}`,
    target: { kind: 'script', file, args: [] },
  };
}

function explain(
  message: string,
  file: string | null,
  samples: readonly string[],
  preferredSample: string,
): ProfileChoice {
  const ordered = [...samples].sort((a, b) => Number(b === preferredSample) - Number(a === preferredSample));
  const options: ChoiceOption[] = ordered.map((name) => ({
    label: `Profile sample '${name}'`,
    target: { kind: 'sample', name },
  }));
  if (file) options.push({ label: `Run ${baseName(file)} as a script`, target: { kind: 'script', file, args: [] } });
  return { kind: 'explain', message, detail: EXPLANATION, options };
}

export function chooseProfile(
  active: ActiveSource | null,
  samples: readonly string[],
  preferredSample: string,
): ProfileChoice {
  if (!active)
    return explain('Open a Python file or notebook to profile: none is active.', null, samples, preferredSample);
  const name = baseName(active.file);
  if (active.kind === 'notebook') {
    // a notebook runs as a script (its code cells in order); it has no importable compile target
    if (findCompileSitesInCells(active.cells).length)
      return { kind: 'run', target: { kind: 'script', file: active.file, args: [] } };
    return explain(`${name} has no torch.compile call.`, active.file, samples, preferredSample);
  }
  const targets = findTargetFunctions(active.text);
  const sites = findCompileSites(active.text).length;
  const targetOptions: ChoiceOption[] = targets.map((t) => ({
    label: t.name,
    description: `compile target, line ${t.line + 1}`,
    target: { kind: 'function', file: active.file, fn: t.name },
  }));
  if (targets.length && sites)
    return {
      kind: 'pick',
      placeHolder: `Profile a compile target of ${name}, or run the whole script?`,
      options: [...targetOptions, scriptOption(active.file, sites)],
    };
  if (targets.length === 1) return { kind: 'run', target: targetOptions[0]!.target };
  if (targets.length > 1)
    return { kind: 'pick', placeHolder: 'Which target should Compile Lens profile?', options: targetOptions };
  if (sites) return { kind: 'run', target: { kind: 'script', file: active.file, args: [] } };
  return explain(`${name} has no compile target and no torch.compile call.`, active.file, samples, preferredSample);
}
