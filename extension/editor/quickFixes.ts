// The edits behind the editor's Quick Fixes: a finding whose fix is a mechanical edit carries the runner's quick fix
// (its kind, its title and the text it inserts; every text of it is the runner's: compiler/quick_fixes.py), and this
// turns it into edits of the user's file. Pure (source text in, edits out), so the edits are unit-tested;
// host/quickFixes.ts turns them into VS Code code actions.
import type { QuickFix } from '../shared/report.ts';

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

const IMPORT = /^(?:import|from)\s/;
const IMPORTS_TORCH = /^import\s+torch\s*(?:#.*)?$|^import\s+torch\s*,|^import\s+[\w\s,]*\btorch\b(?!\s+as)/m;

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

/** The edit for a finding's quick fix in this source, or null when the file already has it or no longer holds what
 * the runner read (an edit's `expect` is not where it was). */
export function quickFixEdit(fix: QuickFix, source: string): QuickFixEdit | null {
  if (fix.kind === 'compile-dynamic') return compileDynamic(source, fix.title);
  if (fix.statement) {
    if (source.includes(fix.statement)) return null;
    const at = afterImports(source.split('\n'));
    const importTorch = IMPORTS_TORCH.test(source) ? '' : 'import torch\n';
    return {
      title: fix.title,
      edits: [
        {
          line: at,
          column: 0,
          endLine: at,
          endColumn: 0,
          text: `${importTorch}${fix.statement}${fix.comment ? `  # ${fix.comment}` : ''}\n`,
        },
      ],
    };
  }
  if (!fix.edits?.length) return null;
  const lines = source.split('\n');
  const edits: TextEdit[] = [];
  for (const e of fix.edits) {
    if (lines[e.line - 1]?.slice(e.column, e.endColumn) !== e.expect) return null;
    edits.push({ line: e.line - 1, column: e.column, endLine: e.line - 1, endColumn: e.endColumn, text: e.text });
  }
  return { title: fix.title, edits };
}

const COMPILE_CALL = /\btorch\.compile\b(\s*\()?/g;

/** `torch.compile(model)` -> `torch.compile(model, dynamic=True)`; `@torch.compile` -> `@torch.compile(dynamic=True)`.
 * Only where the file has one torch.compile (with several, which one recompiled is not known here) and it does not
 * say dynamic= already. */
function compileDynamic(source: string, title: string): QuickFixEdit | null {
  const calls = [...source.matchAll(COMPILE_CALL)];
  if (calls.length !== 1) return null;
  const call = calls[0]!;
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
