// The edits behind the editor's Quick Fixes: a finding whose fix is a mechanical edit (the runner's table names it:
// `quickFix` on a graph break's explanation) becomes text inserted into the user's file. Pure (source text in, lines
// to insert out), so the edits are unit-tested; host/quickFixes.ts turns them into VS Code code actions.

export type QuickFixKind = 'fastpath-off' | 'move-print' | 'compile-dynamic';

/** Replace the text from (line, column) to (endLine, endColumn), 0-based, with `text`: an insertion where they meet. */
export interface TextEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  text: string;
}

export interface QuickFixEdit {
  title: string;
  edits: TextEdit[];
}

interface Setting {
  title: string;
  /** the statement, run once after the imports and before any torch.compile call */
  statement: string;
  why: string;
}

const SETTINGS: Record<Exclude<QuickFixKind, 'compile-dynamic'>, Setting> = {
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

function isSetting(kind: string): kind is keyof typeof SETTINGS {
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
  if (kind === 'compile-dynamic') return compileDynamic(source);
  if (!isSetting(kind)) return null;
  const setting = SETTINGS[kind];
  if (source.includes(setting.statement)) return null;
  const at = afterImports(source.split('\n'));
  const importTorch = IMPORTS_TORCH.test(source) ? '' : 'import torch\n';
  const text = `${importTorch}${setting.statement}  # Compile Lens quick fix: ${setting.why}\n`;
  return { title: `Compile Lens: ${setting.title}`, edits: [{ line: at, column: 0, endLine: at, endColumn: 0, text }] };
}

const COMPILE_CALL = /\btorch\.compile\b(\s*\()?/g;

/** `torch.compile(model)` -> `torch.compile(model, dynamic=True)`; `@torch.compile` -> `@torch.compile(dynamic=True)`.
 * Only where the file has one torch.compile (with several, which one recompiled is not known here) and it does not
 * say dynamic= already. */
function compileDynamic(source: string): QuickFixEdit | null {
  const calls = [...source.matchAll(COMPILE_CALL)];
  if (calls.length !== 1) return null;
  const call = calls[0]!;
  const title = 'Compile Lens: Compile with dynamic=True (one graph for every size)';
  const place = (offset: number): { line: number; column: number } => {
    const before = source.slice(0, offset).split('\n');
    return { line: before.length - 1, column: before.at(-1)!.length };
  };
  const end = call.index + call[0].length;
  if (!call[1]) {
    const at = place(end);
    return { title, edits: [{ ...at, endLine: at.line, endColumn: at.column, text: '(dynamic=True)' }] };
  }
  // the call's closing parenthesis (strings in its arguments may hold parentheses: skipped)
  let depth = 1;
  let i = end;
  let quote: string | null = null;
  for (; i < source.length && depth > 0; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  if (depth > 0) return null;
  const args = source.slice(end, i - 1);
  if (/\bdynamic\s*=/.test(args)) return null;
  const at = place(i - 1);
  const text = args.trim() === '' ? 'dynamic=True' : `${args.trimEnd().endsWith(',') ? ' ' : ', '}dynamic=True`;
  const from = args.trim() === '' ? at : place(end + args.trimEnd().length);
  return { title, edits: [{ ...from, endLine: from.line, endColumn: from.column, text }] };
}
