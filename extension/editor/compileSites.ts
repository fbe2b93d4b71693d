// Finds the lines of Python source that call torch.compile, without running it: `torch.compile(...)` (also through
// `import torch as t` and `from torch import compile [as c]`), the `@torch.compile` / `@torch.compile(...)`
// decorators, and `<module>.compile(...)` (nn.Module.compile) in files that use torch. A line scanner, not a
// parser: strings and comments are blanked first so a `torch.compile` mentioned in them is not a call site.

export type CompileSiteKind = 'call' | 'decorator' | 'module-compile';

export interface CompileSite {
  /** 0-based line */
  line: number;
  /** 0-based column where the call (or decorator's `@`) starts */
  column: number;
  kind: CompileSiteKind;
}

export interface ScanOptions {
  /** IPython source (notebook cells): lines starting with `%` or `!` are magics or shell commands, not Python */
  ipython?: boolean;
}

/**
 * The source's lines with every string literal's contents and every comment replaced by spaces (quotes kept,
 * columns unchanged): what a pattern sees is code. Triple-quoted strings may span lines.
 */
export function codeLines(source: string, options: ScanOptions = {}): string[] {
  const out: string[] = [];
  let quote: string | null = null; // the open string's delimiter: ' " ''' """
  for (const line of source.split(/\r?\n/)) {
    if (quote === null && options.ipython && /^\s*[%!]/.test(line)) {
      out.push(' '.repeat(line.length));
      continue;
    }
    let code = '';
    let i = 0;
    while (i < line.length) {
      if (quote !== null) {
        if (line[i] === '\\') {
          const escaped = Math.min(2, line.length - i);
          code += ' '.repeat(escaped);
          i += escaped;
        } else if (line.startsWith(quote, i)) {
          code += quote;
          i += quote.length;
          quote = null;
        } else {
          code += ' ';
          i++;
        }
        continue;
      }
      const c = line[i]!;
      if (c === '#') {
        code += ' '.repeat(line.length - i);
        break;
      }
      if (c === '"' || c === "'") {
        quote = line.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
        code += quote;
        i += quote.length;
        continue;
      }
      code += c;
      i++;
    }
    // a one-quote string ends with its line (a trailing backslash continuation aside, which this scanner ignores)
    if (quote === "'" || quote === '"') quote = null;
    out.push(code);
  }
  return out;
}

interface TorchNames {
  /** names bound to the torch module: torch, and `t` in `import torch as t` */
  modules: Set<string>;
  /** names bound to torch.compile itself: `from torch import compile [as c]` */
  functions: Set<string>;
  /** the code imports or names torch at all (nn.Module.compile is only considered then) */
  usesTorch: boolean;
}

const IMPORT = /^\s*import\s+(.+)$/;
const FROM_TORCH = /^\s*from\s+torch\s+import\s+\(?([^)]*)\)?\s*$/;
const IDENT = '[A-Za-z_][A-Za-z0-9_]*';
const NAMES_TORCH = /(?<![\w.])torch\b/;
const TORCH_AS = new RegExp(`^\\s*torch\\s+as\\s+(${IDENT})\\s*$`);
const COMPILE_AS = new RegExp(`^\\s*compile(?:\\s+as\\s+(${IDENT}))?\\s*$`);

function torchNames(lines: string[]): TorchNames {
  const names: TorchNames = { modules: new Set(['torch']), functions: new Set(), usesTorch: false };
  for (const line of lines) {
    if (NAMES_TORCH.test(line)) names.usesTorch = true;
    const imported = IMPORT.exec(line);
    for (const part of imported ? imported[1]!.split(',') : []) {
      const alias = TORCH_AS.exec(part);
      if (alias) names.modules.add(alias[1]!);
    }
    const from = FROM_TORCH.exec(line);
    for (const part of from ? from[1]!.split(',') : []) {
      const named = COMPILE_AS.exec(part);
      if (named) names.functions.add(named[1] ?? 'compile');
    }
  }
  return names;
}

const escape = (name: string): string => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Receivers whose `.compile(` is not nn.Module.compile: regular expressions and Python's own compile. */
const NOT_MODULES = new Set(['re', 'regex', 'builtins', 'ast']);
/** Keyword arguments that mark another library's compile (Keras: model.compile(optimizer=..., loss=...)). */
const FOREIGN_COMPILE_ARGS = /\(\s*(?:optimizer|loss|metrics)\s*=/;
/** `<receiver>.compile(`: a dotted name or a call's closing parenthesis */
const METHOD_CALL = new RegExp(`((?<![\\w.])${IDENT}(?:\\s*\\.\\s*${IDENT})*|\\))\\s*\\.\\s*compile\\s*\\(`, 'g');

interface SitePatterns {
  decorator: RegExp;
  call: RegExp;
  /** a call of a name bound to torch.compile itself */
  bare: RegExp | null;
  /** nn.Module.compile() is considered only in code that uses torch */
  methods: boolean;
}

function sitePatterns(names: TorchNames): SitePatterns {
  const modules = [...names.modules].map(escape).join('|');
  const functions = [...names.functions].map(escape).join('|');
  return {
    decorator: new RegExp(`^(\\s*)@\\s*(?:(?:${modules})\\s*\\.\\s*compile${functions ? `|${functions}` : ''})\\b`),
    call: new RegExp(`(?<![\\w.])(?:${modules})\\s*\\.\\s*compile\\s*\\(`),
    bare: functions ? new RegExp(`(?<![\\w.])(?:${functions})\\s*\\(`) : null,
    methods: names.usesTorch,
  };
}

function siteOnLine(code: string, patterns: SitePatterns): { column: number; kind: CompileSiteKind } | null {
  const decorator = patterns.decorator.exec(code);
  if (decorator) return { column: decorator[1]!.length, kind: 'decorator' };
  const call = patterns.call.exec(code);
  if (call) return { column: call.index, kind: 'call' };
  const bare = patterns.bare?.exec(code);
  // `def compile(` defines a function; it does not call torch.compile
  if (bare && !/\bdef\s*$/.test(code.slice(0, bare.index))) return { column: bare.index, kind: 'call' };
  if (!patterns.methods) return null;
  METHOD_CALL.lastIndex = 0;
  for (let match = METHOD_CALL.exec(code); match; match = METHOD_CALL.exec(code)) {
    const receiver = match[1]!.replace(/\s+/g, '');
    const rest = code.slice(match.index + match[0].length - 1);
    if (NOT_MODULES.has(receiver) || /^\(\s*['"]/.test(rest) || FOREIGN_COMPILE_ARGS.test(rest)) continue;
    return { column: match.index, kind: 'module-compile' };
  }
  return null;
}

/** One site per line that calls torch.compile (or nn.Module.compile), in source order. */
export function findCompileSites(source: string, options: ScanOptions = {}): CompileSite[] {
  const lines = codeLines(source, options);
  return sitesIn(lines, torchNames(lines));
}

function sitesIn(lines: string[], names: TorchNames): CompileSite[] {
  const patterns = sitePatterns(names);
  const sites: CompileSite[] = [];
  lines.forEach((code, line) => {
    const site = siteOnLine(code, patterns);
    if (site) sites.push({ line, ...site });
  });
  return sites;
}

/**
 * Notebook cells (IPython source): each cell's sites, with the imports of every cell in view (a notebook imports
 * torch in one cell and compiles in another). `cell` is the index in the list given.
 */
export function findCompileSitesInCells(cells: string[]): (CompileSite & { cell: number })[] {
  const perCell = cells.map((text) => codeLines(text, { ipython: true }));
  const names = torchNames(perCell.flat());
  return perCell.flatMap((lines, cell) => sitesIn(lines, names).map((site) => ({ ...site, cell })));
}
