// Turns a report into what the editor shows: one finding per graph break / recompile site, with the reason,
// what it cost and a fix — and, for a torchrun job, the ranks it happened on and where the ranks diverged. Pure,
// so diagnostics, hovers, the CLI's `check` and tests share one reading.
import type { Divergence, GraphBreak, ModeResult, Recompile, RecompileSite, Report, SourceLocation } from './report.ts';

export type FindingKind = 'graph-break' | 'recompile' | 'divergence';

export interface Finding {
  kind: FindingKind;
  file: string;
  line: number;
  /** notebooks: index of the cell; `line` is then within that cell */
  cell: number | null;
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
  /** what the user's code or calls did, in their terms (the runner's explanation of a guard failure) */
  what: string | null;
  /** recompiles at this site with this guard pattern, or graph breaks at this site with this reason (schema 1.14; 1
   * before), the most in any one mode */
  count: number;
  /** a torchrun job: the ranks it happened on (a divergence: the ranks that did what the others did not); null for one process */
  ranks: number[] | null;
  /** a torchrun job: how many ranks it had; null for one process */
  worldSize: number | null;
}

const GRAPH_BREAK_DOCS = 'https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html#graph-breaks';
const RECOMPILE_DOCS = 'https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html#recompilations';

/** Fixes known to work for the commonest causes, matched on the compiler's own reason text. */
const FIXES: { pattern: RegExp; fix: string }[] = [
  { pattern: /\bprint\b/i, fix: 'Move the print out of the compiled code, or log with `logging` (Dynamo reorders logging calls to the end of the graph).' },
  { pattern: /\.item\(\)|Tensor\.item|capture_scalar_outputs|tolist/i, fix: 'Keep the value a tensor (e.g. `torch.where(x.sum() > 0, x * 2, x)`), or set `torch._dynamo.config.capture_scalar_outputs = True`.' },
  { pattern: /numpy|np\.random|random\./i, fix: 'Replace the numpy/`random` call with a torch op (`torch.randint`), or make the choice outside the compiled function and pass it in.' },
  { pattern: /data[- ]dependent|control flow|generic_jump|jump/i, fix: 'Replace Python `if` on tensor values with `torch.where` or `torch.cond`.' },
  { pattern: /stride mismatch|dim mismatch|shape|dynamic/i, fix: 'Mark the changing dimension dynamic (`torch._dynamo.mark_dynamic(tensor, dim)`) or compile with `dynamic=True`; or warm up with the shapes you will run.' },
  { pattern: /dtype mismatch|requires_grad|grad_mode|inference/i, fix: 'Warm up with the same dtype and grad mode (`torch.no_grad` / `inference_mode`) as the real call.' },
  { pattern: /id_match|___check_obj_id|ID_MATCH/i, fix: 'A different object reached the compiled code: compile once per object, or pass the changing value as a tensor argument.' },
];

const SIZE_MISMATCH = /tensor '([^']+)' size mismatch at index (\d+)/;

export function suggestFix(reason: string, hint?: string | null): string | null {
  const text = `${reason} ${hint ?? ''}`;
  // the dimension that changed, of the tensor named: never a generic index 0
  const size = SIZE_MISMATCH.exec(text);
  if (size) {
    const name = /^[A-Za-z_]\w*$/.test(size[1]!) ? size[1]! : 'x';
    return `Mark dimension ${size[2]} dynamic (\`torch._dynamo.mark_dynamic(${name}, ${size[2]})\` before the first call) or compile with \`dynamic=True\`; or warm up with the shapes you will run.`;
  }
  return FIXES.find((f) => f.pattern.test(text))?.fix ?? null;
}

function siteOf(location: SourceLocation | null, stack: SourceLocation[]): SourceLocation | null {
  return location ?? stack[stack.length - 1] ?? null;
}

type FindingOf = Omit<Finding, 'modes' | 'worldSize'>;

function addFinding(into: Map<string, Finding>, finding: FindingOf, mode: string, worldSize: number | null): void {
  const key = `${finding.kind}\0${finding.file}\0${finding.cell}\0${finding.line}\0${finding.reason}`;
  const existing = into.get(key);
  if (existing) {
    if (!existing.modes.includes(mode)) existing.modes.push(mode);
    existing.count = Math.max(existing.count, finding.count);
    if (existing.ranks && finding.ranks) existing.ranks = [...new Set([...existing.ranks, ...finding.ranks])].sort((a, b) => a - b);
    return;
  }
  into.set(key, { ...finding, modes: [mode], worldSize });
}

function graphBreakFinding(item: GraphBreak, mode: Pick<ModeResult, 'compiler' | 'outsideGraphsMsPerStep'>): FindingOf | null {
  const site = siteOf(item.location, item.userStack);
  if (!site) return null;
  return {
    kind: 'graph-break', file: site.file, line: site.line, cell: site.cell ?? null, reason: item.reason, hint: item.hint ?? null,
    code: item.gbId ?? 'graph-break', docUrl: item.docUrl ?? GRAPH_BREAK_DOCS, fix: suggestFix(item.reason, item.hint),
    graphCount: mode.compiler?.graphCount ?? null, outsideGraphsMs: mode.outsideGraphsMsPerStep ?? null, trigger: null,
    what: null, count: item.count ?? 1, ranks: item.ranks ?? null,
  };
}

function recompileFinding(item: Recompile | RecompileSite, mode: Pick<ModeResult, 'compiler'>): FindingOf | null {
  if (!item.location) return null;
  const count = 'count' in item ? item.count : 1;
  // a recurring site reads as its pattern (self.calls == N), a single recompile as its own reason
  const reason = count > 1 && item.pattern ? item.pattern : item.reason;
  return {
    kind: 'recompile', file: item.location.file, line: item.location.line, cell: item.location.cell ?? null, reason, hint: item.hint ?? null,
    code: 'recompile', docUrl: RECOMPILE_DOCS, fix: item.explanation?.fix ?? suggestFix(item.reason, item.hint),
    graphCount: mode.compiler?.graphCount ?? null, outsideGraphsMs: null, trigger: item.trigger ?? null,
    what: item.explanation?.what ?? null, count, ranks: item.ranks ?? null,
  };
}

/** A divergence between ranks, at the user's line it names (those without a line are in the report and CLI only). */
function divergenceFinding(item: Divergence): FindingOf | null {
  if (!item.location) return null;
  const reasons = item.details?.reasons;
  const reason = Array.isArray(reasons) && typeof reasons[0] === 'string' ? reasons[0] : typeof item.details?.reason === 'string' ? item.details.reason : item.message;
  return {
    kind: 'divergence', file: item.location.file, line: item.location.line, cell: item.location.cell ?? null, reason: item.message,
    hint: null, code: `rank-${item.kind}`, docUrl: null, fix: suggestFix(reason), graphCount: null, outsideGraphsMs: null, trigger: null,
    what: null, count: 1, ranks: item.ranks,
  };
}

/**
 * Every graph break and recompile site of the report, one per source line and reason, with the modes it hit. A
 * script report's regions add theirs (labelled "r0 Model"), merged with the script entry's where they are the same site.
 */
export function collectFindings(report: Report): Finding[] {
  const found = new Map<string, Finding>();
  const worldSize = report.ranks?.length || null;
  const sources = [
    ...report.modes.map((mode) => ({ label: mode.mode, mode })),
    ...(report.regions ?? []).map((region) => ({ label: `${region.id} ${region.name}`, mode: { compiler: region.compiler ?? null } })),
  ];
  for (const { label, mode } of sources) {
    for (const item of mode.compiler?.graphBreaks ?? []) {
      const finding = graphBreakFinding(item, mode);
      if (finding) addFinding(found, finding, label, worldSize);
    }
    // schema 1.4 groups recompiles that recur at one site; older reports list each one
    for (const item of mode.compiler?.recompileSites ?? mode.compiler?.recompiles ?? []) {
      const finding = recompileFinding(item, mode);
      if (finding) addFinding(found, finding, label, worldSize);
    }
  }
  for (const item of report.divergence ?? []) {
    const finding = divergenceFinding(item);
    if (finding) addFinding(found, finding, 'ranks', worldSize);
  }
  return [...found.values()].sort((a, b) => a.file.localeCompare(b.file) || (a.cell ?? -1) - (b.cell ?? -1) || a.line - b.line);
}

/** "0, 1", "0-2, 4, 6-9": three or more consecutive ranks as a range (a job of 64 ranks stays one line). */
export function rankRanges(ranks: readonly number[]): string {
  const sorted = [...new Set(ranks)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j - i >= 2 ? `${sorted[i]}-${sorted[j]}` : sorted.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return parts.join(', ');
}

/** "on ranks 0, 1", "on rank 1 only", "on all 64 ranks"; null for one process. */
export function rankText(finding: Pick<Finding, 'ranks' | 'worldSize'>): string | null {
  const { ranks, worldSize } = finding;
  if (!ranks?.length || !worldSize || worldSize < 2) return null;
  if (ranks.length === 1) return `on rank ${ranks[0]} only`;
  if (worldSize > 2 && new Set(ranks).size === worldSize) return `on all ${worldSize} ranks`;
  return `on ranks ${rankRanges(ranks)}`;
}

const KIND_TITLE = { 'graph-break': 'Graph break', recompile: 'Recompile', divergence: 'Ranks diverged' } as const;

/** One line for the Problems panel and `compile-lens check`. */
export function findingMessage(finding: Finding): string {
  const kind = finding.kind !== 'divergence' && finding.count > 1 ? `${KIND_TITLE[finding.kind]} ×${finding.count}` : KIND_TITLE[finding.kind];
  const ranks = finding.kind === 'divergence' ? null : rankText(finding);
  return `${kind}: ${finding.reason}${ranks ? ` (${ranks})` : ''}`;
}

/** Markdown for the hover over the finding's line. Strings from the report are escaped: they are data. */
export function findingHover(finding: Finding): string {
  const esc = escapeMarkdown;
  const lines: string[] = [];
  const title = finding.kind !== 'divergence' && finding.count > 1
    ? `${finding.count} ${finding.kind === 'recompile' ? 'recompiles' : 'graph breaks'} at this line` : KIND_TITLE[finding.kind];
  // a divergence's sentence names its ranks itself
  const tags = finding.kind === 'divergence' ? [] : [...finding.modes, rankText(finding)].filter((t): t is string => t !== null);
  lines.push(`**Compile Lens — ${title}**${tags.length ? ` (${tags.map(esc).join(', ')})` : ''}`, '');
  lines.push(`**${finding.kind === 'divergence' ? 'What differed' : 'Reason'}:** ${esc(finding.reason)}`);
  // the answer first: what to do, then why and what it cost
  if (finding.fix) lines.push('', `**Fix:** ${finding.what ? esc(finding.fix) : finding.fix}`);
  if (finding.what) lines.push('', `**What happened:** ${esc(finding.what)}`);
  if (finding.trigger) lines.push('', `**Triggered by:** ${esc(finding.trigger)}`);
  if (finding.hint) lines.push('', `**PyTorch's hint:** ${esc(finding.hint)}`);
  if (finding.kind === 'graph-break' && finding.graphCount !== null) {
    const outside = finding.outsideGraphsMs === null ? '' : ` (${finding.outsideGraphsMs.toFixed(3)} ms per call is spent outside the graphs: eager code, guards, Python)`;
    lines.push('', `**Cost:** the compiled code is split into ${finding.graphCount} graph${finding.graphCount === 1 ? '' : 's'}; code between them runs eagerly${outside}.`);
  }
  if (finding.docUrl) lines.push('', `[${esc(finding.code)} — PyTorch docs](${finding.docUrl})`);
  return lines.join('\n');
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-!<>|~]/g, (c) => `\\${c}`);
}
