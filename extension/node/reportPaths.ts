// Where the paths a report names may lead: its own files (traces, generated code, guards, FX graphs, logs) only
// inside its folder, source links only inside the workspace. A crafted report.json must not make the extension
// read anything else: an absolute path (~/.ssh/id_rsa, /dev/zero), `../` out of the folder, a link that points
// out, or something that is not a regular file (a device, a FIFO) is refused with a message naming it.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export class PathRefused extends Error {}

const isInside = (root: string, file: string): boolean => {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative);
};

/** The real path of `file` when it is inside one of `roots` both as written and with links followed, and is a
 * regular file; otherwise PathRefused, with `refusal` as its message. */
export async function fileInside(file: string, roots: readonly string[], refusal: string): Promise<string> {
  const resolved = path.resolve(file);
  if (!roots.some((root) => isInside(path.resolve(root), resolved))) throw new PathRefused(refusal);
  let real: string;
  try {
    real = await realpath(resolved);
  } catch (error) {
    throw new PathRefused(`Cannot read ${resolved}: ${(error as Error).message}`);
  }
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => path.resolve(root))));
  if (!realRoots.some((root) => isInside(root, real)))
    throw new PathRefused(`${refusal} (${resolved} is a link to ${real})`);
  if (!(await stat(real)).isFile()) throw new PathRefused(`${refusal} (${resolved} is not a regular file)`);
  return real;
}

/** A file a report names (relative to its folder `dir`), checked by fileInside against that folder. */
export async function reportFilePath(dir: string, relative: string, what: string): Promise<string> {
  const refusal = `The report in ${dir} names its ${what} "${relative}", which is not a file of its own folder: Compile Lens reads only a report's own files. Profile again to get a report written by the runner.`;
  if (path.isAbsolute(relative)) throw new PathRefused(refusal);
  return fileInside(path.resolve(dir, relative), [dir], refusal);
}

/** A source file a report links to (a finding's line, a kernel's lines), checked by fileInside against the
 * workspace folders. */
export async function sourceFilePath(file: string, workspaceFolders: readonly string[]): Promise<string> {
  const refusal = workspaceFolders.length
    ? `Compile Lens opens source links of the workspace only: ${file} is outside ${workspaceFolders.join(', ')}. Open the folder holding it as the workspace.`
    : `Compile Lens opens source links of the workspace only, and no folder is open: open the folder holding ${file}.`;
  return fileInside(file, workspaceFolders, refusal);
}
