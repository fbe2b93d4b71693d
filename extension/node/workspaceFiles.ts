// The workspace's files that could be copies of files a log names: those with the same base names, found by walking
// the workspace (dot folders, node_modules, __pycache__ and virtual environments skipped; bounded).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { baseName } from '../shared/fileName.ts';

const SKIP = new Set(['node_modules', '__pycache__', 'site-packages', 'dist-packages', 'venv', 'env']);
const MAX_ENTRIES = 200_000;

/** Absolute paths under `root` whose base name is one of `names`' base names. */
export async function workspaceFilesNamed(root: string, names: readonly string[]): Promise<string[]> {
  const wanted = new Set(names.map(baseName));
  const found: string[] = [];
  const pending = [path.resolve(root)];
  let seen = 0;
  while (pending.length && seen < MAX_ENTRIES) {
    const folder = pending.pop()!;
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: its files cannot be opened either
    }
    seen += entries.length;
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIP.has(entry.name)) pending.push(path.join(folder, entry.name));
      } else if (wanted.has(entry.name)) {
        found.push(path.join(folder, entry.name));
      }
    }
  }
  return found.sort();
}
