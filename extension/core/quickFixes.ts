// The edits behind the editor's Quick Fixes: a finding whose fix is a mechanical edit (the runner's table names it:
// `quickFix` on a graph break's explanation) becomes text inserted into the user's file. Pure (source text in, lines
// to insert out), so the edits are unit-tested; host/quickFixes.ts turns them into VS Code code actions.

export type QuickFixKind = 'fastpath-off' | 'move-print';

/** Insert `text` (whole lines, ending in a newline) before 0-based line `line`. */
export interface TextInsertion {
  line: number;
  text: string;
}

export interface QuickFixEdit {
  title: string;
  insertions: TextInsertion[];
}

interface Setting {
  title: string;
  /** the statement, run once after the imports and before any torch.compile call */
  statement: string;
  why: string;
}

const SETTINGS: Record<QuickFixKind, Setting> = {
  'fastpath-off': {
    title: 'Turn the transformer fast path off before compiling',
    statement: 'torch.backends.mha.set_fastpath_enabled(False)',
    why: 'the fused inference fast path breaks torch.compile; the plain ops compile',
  },
  'move-print': {
    title: 'Let torch.compile print after the graph runs (no graph break)',
    statement: 'torch._dynamo.config.reorderable_logging_functions.add(print)',
    why: 'print() is deferred to after the compiled graph instead of breaking it',
  },
};

const IMPORT = /^(?:import|from)\s/;
const IMPORTS_TORCH = /^import\s+torch\s*(?:#.*)?$|^import\s+torch\s*,|^import\s+[\w\s,]*\btorch\b(?!\s+as)/m;

function isKind(kind: string): kind is QuickFixKind {
  return Object.prototype.hasOwnProperty.call(SETTINGS, kind);
}

/** The 0-based line after the module's leading imports (after its docstring and comments when it has no import). */
export function afterImports(lines: readonly string[]): number {
  let i = 0;
  let after = 0;
  let inDocstring: string | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (inDocstring) {
      if (trimmed.includes(inDocstring)) {
        inDocstring = null;
        after = Math.max(after, i + 1);
      }
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const quote = /^[rRuUbB]*("""|''')/.exec(trimmed);
    if (quote && after === 0) {
      // a docstring: one line when it closes on the line it opens
      if (trimmed.slice(quote[0].length).includes(quote[1]!)) after = i + 1;
      else inDocstring = quote[1]!;
      continue;
    }
    if (!IMPORT.test(line)) break;
    // a parenthesised import runs to its closing parenthesis; a backslash continues it
    let end = i;
    if (line.includes('(') && !line.includes(')')) while (end + 1 < lines.length && !lines[end]!.includes(')')) end++;
    while (lines[end]!.trimEnd().endsWith('\\') && end + 1 < lines.length) end++;
    i = end;
    after = end + 1;
  }
  return after;
}

/** The edit for a finding's quick fix in this source, or null when the kind is unknown or the file already has it. */
export function quickFixEdit(kind: string, source: string): QuickFixEdit | null {
  if (!isKind(kind)) return null;
  const setting = SETTINGS[kind];
  if (source.includes(setting.statement)) return null;
  const lines = source.split('\n');
  const at = afterImports(lines);
  const importTorch = IMPORTS_TORCH.test(source) ? '' : 'import torch\n';
  return {
    title: `Compile Lens: ${setting.title}`,
    insertions: [{ line: at, text: `${importTorch}${setting.statement}  # Compile Lens quick fix: ${setting.why}\n` }],
  };
}
