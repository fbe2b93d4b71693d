// File names from paths without node:path (the webview bundles shared/): either separator, as paths in reports may
// come from Windows or POSIX.

/** The last part of a path: "model.py" from "/work/model.py" or "C:\\work\\model.py". */
export const baseName = (file: string): string =>
  file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
