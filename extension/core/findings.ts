// Turns a report into what the editor shows: one finding per graph break / recompile site, with the reason,
// what it cost and a fix. Pure, so diagnostics, hovers, the CLI's `check` and tests share one reading.
import type { GraphBreak, ModeResult, Recompile, Report, SourceLocation } from './report.ts';

export type FindingKind = 'graph-break' | 'recompile';

export interface Finding {
  kind: FindingKind;
  file: string;
  line: number;
  reason: string;
  hint: string | null;
  /** PyTorch's graph-break id (e.g. GB0059) or the finding kind */
  code: string;
  docUrl: string | null;
  fix: string | null;
  /** modes in which this site broke / recompiled */
  modes: string[];
  /** graphs the compiled frame was split into (graph breaks) */
  graphCount: number | null;
  /** per call, CPU time outside the compiled graphs in the mode where the break was first seen */
  outsideGraphsMs: number | null;
  /** the call that triggered a recompile, in words */
  trigger: string | null;
}

const GRAPH_BREAK_DOCS = 'https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html#graph-breaks';
const RECOMPILE_DOCS = 'https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html#recompilations';

/** Fixes known to work for the commonest causes, matched on the compiler's own reason text. */
const FIXES: { pattern: RegExp; fix: string }[] = [
  { pattern: /\bprint\b/i, fix: 'Move the print out of the compiled code, or log with `logging` (Dynamo reorders logging calls to the end of the graph).' },
  { pattern: /\.item\(\)|Tensor\.item|capture_scalar_outputs|tolist/i, fix: 'Keep the value a tensor (e.g. `torch.where(x.sum() > 0, x * 2, x)`), or set `torch._dynamo.config.capture_scalar_outputs = True`.' },
  { pattern: /numpy|np\.random|random\./i, fix: 'Replace the numpy/`random` call with a torch op (`torch.randint`), or make the choice outside the compiled function and pass it in.' },
  { pattern: /data[- ]dependent|control flow|generic_jump|jump/i, fix: 'Replace Python `if` on tensor values with `torch.where` or `torch.cond`.' },
  { pattern: /size mismatch|stride mismatch|dim mismatch|shape|dynamic/i, fix: 'Mark the changing dimension dynamic (`torch._dynamo.mark_dynamic(x, 0)`) or compile with `dynamic=True`; or warm up with the shapes you will run.' },
  { pattern: /dtype mismatch|requires_grad|grad_mode|inference/i, fix: 'Warm up with the same dtype and grad mode (`torch.no_grad` / `inference_mode`) as the real call.' },
  { pattern: /id_match|___check_obj_id|ID_MATCH/i, fix: 'A different object reached the compiled code: compile once per object, or pass the changing value as a tensor argument.' },
];

export function suggestFix(reason: string, hint?: string | null): string | null {
  const text = `${reason} ${hint ?? ''}`;
  return FIXES.find((f) => f.pattern.test(text))?.fix ?? null;
}

function siteOf(location: SourceLocation | null, stack: SourceLocation[]): SourceLocation | null {
  return location ?? stack[stack.length - 1] ?? null;
}

function addFinding(into: Map<string, Finding>, finding: Omit<Finding, 'modes'>, mode: string): void {
  const key = `${finding.kind}\0${finding.file}\0${finding.line}\0${finding.reason}`;
  const existing = into.get(key);
  if (existing) {
    if (!existing.modes.includes(mode)) existing.modes.push(mode);
    return;
  }
  into.set(key, { ...finding, modes: [mode] });
}

function graphBreakFinding(item: GraphBreak, mode: ModeResult): Omit<Finding, 'modes'> | null {
  const site = siteOf(item.location, item.userStack);
  if (!site) return null;
  return {
    kind: 'graph-break', file: site.file, line: site.line, reason: item.reason, hint: item.hint ?? null,
    code: item.gbId ?? 'graph-break', docUrl: item.docUrl ?? GRAPH_BREAK_DOCS, fix: suggestFix(item.reason, item.hint),
    graphCount: mode.compiler?.graphCount ?? null, outsideGraphsMs: mode.outsideGraphsMsPerStep ?? null, trigger: null,
  };
}

function recompileFinding(item: Recompile, mode: ModeResult): Omit<Finding, 'modes'> | null {
  if (!item.location) return null;
  return {
    kind: 'recompile', file: item.location.file, line: item.location.line, reason: item.reason, hint: null,
    code: 'recompile', docUrl: RECOMPILE_DOCS, fix: suggestFix(item.reason), graphCount: mode.compiler?.graphCount ?? null,
    outsideGraphsMs: null, trigger: item.trigger ?? null,
  };
}

/** Every graph break and recompile of the report, one per source site and reason, with the modes it hit. */
export function collectFindings(report: Report): Finding[] {
  const found = new Map<string, Finding>();
  for (const mode of report.modes) {
    for (const item of mode.compiler?.graphBreaks ?? []) {
      const finding = graphBreakFinding(item, mode);
      if (finding) addFinding(found, finding, mode.mode);
    }
    for (const item of mode.compiler?.recompiles ?? []) {
      const finding = recompileFinding(item, mode);
      if (finding) addFinding(found, finding, mode.mode);
    }
  }
  return [...found.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** One line for the Problems panel and `compile-lens check`. */
export function findingMessage(finding: Finding): string {
  const what = finding.kind === 'graph-break' ? 'Graph break' : 'Recompile';
  return `${what}: ${finding.reason}`;
}

/** Markdown for the hover over the finding's line. Strings from the report are escaped: they are data. */
export function findingHover(finding: Finding): string {
  const esc = escapeMarkdown;
  const lines: string[] = [];
  const title = finding.kind === 'graph-break' ? 'Graph break' : 'Recompile';
  lines.push(`**Compile Lens — ${title}** (${finding.modes.map(esc).join(', ')})`, '');
  lines.push(`**Reason:** ${esc(finding.reason)}`);
  if (finding.hint) lines.push('', `**Hint:** ${esc(finding.hint)}`);
  if (finding.kind === 'graph-break' && finding.graphCount !== null) {
    const outside = finding.outsideGraphsMs === null ? '' : ` (${finding.outsideGraphsMs.toFixed(3)} ms per call is spent outside the graphs: eager code, guards, Python)`;
    lines.push('', `**Cost:** the compiled code is split into ${finding.graphCount} graph${finding.graphCount === 1 ? '' : 's'}; code between them runs eagerly${outside}.`);
  }
  if (finding.trigger) lines.push('', `**Triggered by:** ${esc(finding.trigger)}`);
  if (finding.fix) lines.push('', `**Fix:** ${finding.fix}`);
  if (finding.docUrl) lines.push('', `[${esc(finding.code)} — PyTorch docs](${finding.docUrl})`);
  return lines.join('\n');
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-!<>|~]/g, (c) => `\\${c}`);
}
