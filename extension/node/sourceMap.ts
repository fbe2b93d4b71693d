// A log made on another machine names that machine's files: each user file is mapped onto the workspace's copy, by
// an explicit rule (FROM=TO prefixes: --source-map, compileLens.sourceMap) or else by the longest matching path
// suffix among the workspace's files. A file with no copy, or with two equally good ones, is said and left at the
// log's path — never placed on a wrong file. Pure: the host and the CLI list the workspace's files.
import type { Report, SourceLocation, SourceMapping } from '../shared/report.ts';

export interface SourceMapRule {
  from: string;
  to: string;
}

/** "FROM=TO" (paths may themselves hold '=': the first one splits). */
export function parseSourceMapRule(text: string): SourceMapRule {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1) {
    throw new Error(`a source map rule must look like /path/on/the/cluster=/path/in/the/workspace, got "${text}"`);
  }
  return { from: text.slice(0, at), to: text.slice(at + 1) };
}

const segments = (file: string): string[] => file.split(/[\\/]+/).filter(Boolean);
const trimSlash = (file: string): string => file.replace(/[\\/]+$/, '');

/** Under `prefix` as a folder (not merely a longer name beginning the same way): the rest, else null. */
function under(file: string, prefix: string): string | null {
  const base = trimSlash(prefix);
  if (file === base) return '';
  return file.startsWith(base) && /[\\/]/.test(file[base.length] ?? '') ? file.slice(base.length + 1) : null;
}

function joinPath(folder: string, rest: string): string {
  if (!rest) return trimSlash(folder);
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  return `${trimSlash(folder)}${separator}${rest.replace(/[\\/]+/g, separator)}`;
}

export class SourceMapper {
  private readonly files: Set<string>;
  private readonly byName = new Map<string, string[]>();
  private readonly rules: SourceMapRule[];
  private readonly cache = new Map<string, SourceMapping>();

  /** workspaceFiles: the workspace's files (absolute) that could be a logged file's copy; rules: longest `from` wins. */
  constructor(workspaceFiles: readonly string[], rules: readonly SourceMapRule[]) {
    this.files = new Set(workspaceFiles);
    for (const file of workspaceFiles) {
      const name = segments(file).at(-1) ?? file;
      this.byName.set(name, [...(this.byName.get(name) ?? []), file]);
    }
    this.rules = [...rules].sort((a, b) => trimSlash(b.from).length - trimSlash(a.from).length);
  }

  map(file: string): SourceMapping {
    let found = this.cache.get(file);
    if (!found) {
      found = this.find(file);
      this.cache.set(file, found);
    }
    return found;
  }

  private find(file: string): SourceMapping {
    for (const rule of this.rules) {
      const rest = under(file, rule.from);
      if (rest === null) continue;
      const to = joinPath(rule.to, rest);
      return this.files.has(to)
        ? { status: 'rule', from: file, to }
        : { status: 'missing', from: file, to: null, rule: `${rule.from}=${rule.to}` };
    }
    if (this.files.has(file)) return { status: 'same', from: file, to: file };
    const parts = segments(file);
    let best = 0;
    let winners: string[] = [];
    for (const candidate of this.byName.get(parts.at(-1) ?? '') ?? []) {
      const theirs = segments(candidate);
      let shared = 0;
      while (
        shared < parts.length &&
        shared < theirs.length &&
        parts[parts.length - 1 - shared] === theirs[theirs.length - 1 - shared]
      )
        shared++;
      if (shared > best) [best, winners] = [shared, [candidate]];
      else if (shared === best) winners.push(candidate);
    }
    if (winners.length === 1) return { status: 'suffix', from: file, to: winners[0]! };
    if (winners.length > 1) return { status: 'ambiguous', from: file, to: null, candidates: winners.sort() };
    return { status: 'missing', from: file, to: null };
  }
}

type Place = Pick<SourceLocation, 'file'> & { line?: unknown };

function isPlace(value: unknown): value is Place {
  return typeof value === 'object' && value !== null && typeof (value as Place).file === 'string' && 'line' in value;
}

/** Every `{file, line}` of the report (locations, stacks, the target), in place. */
function eachPlace(value: unknown, visit: (place: Place) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) eachPlace(item, visit);
  } else if (typeof value === 'object' && value !== null) {
    if (isPlace(value)) visit(value);
    for (const item of Object.values(value)) eachPlace(item, visit);
  }
}

/** The user files a report names (synthetic `<...>` frames left out). */
export function reportFiles(report: Report): string[] {
  const found = new Set<string>();
  eachPlace(report, (place) => {
    if (!place.file.startsWith('<')) found.add(place.file);
  });
  return [...found].sort();
}

/**
 * The report with each user file replaced by its workspace copy where one was found; returns how each file was
 * mapped (in file order), so that a file left at the log's path is said.
 */
export function mapReport(report: Report, mapper: SourceMapper): { report: Report; mappings: SourceMapping[] } {
  const copy = structuredClone(report);
  const mappings = reportFiles(copy).map((file) => mapper.map(file));
  eachPlace(copy, (place) => {
    const to = mapper.map(place.file).to;
    if (to !== null && !place.file.startsWith('<')) place.file = to;
  });
  return { report: copy, mappings };
}
