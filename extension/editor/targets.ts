// Finds compile targets in Python source without running it. Convention (README): a top-level function whose
// name starts with `compile_target`, or one marked by a `# compile-lens: target` comment on the line above,
// returns (model_or_callable, example_inputs).

export interface TargetFunction {
  name: string;
  /** 0-based line of the `def` */
  line: number;
}

const DEF = /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/;
const MARKER = /^#\s*compile-lens:\s*target\b/i;

export function findTargetFunctions(source: string): TargetFunction[] {
  const lines = source.split(/\r?\n/);
  const found: TargetFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = DEF.exec(lines[i]!);
    if (!match) continue;
    const name = match[1]!;
    let above = i - 1;
    while (above >= 0 && lines[above]!.startsWith('@')) above--;
    if (name.startsWith('compile_target') || (above >= 0 && MARKER.test(lines[above]!.trim())))
      found.push({ name, line: i });
  }
  return found;
}
