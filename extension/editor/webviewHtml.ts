// The timeline webview's HTML: a strict Content-Security-Policy (nothing but the nonce'd bundle may run),
// shared by the extension host and the browser tests so both exercise the same policy.

export interface WebviewHtmlOptions {
  /** webview URI of dist/webview.js */
  scriptUri: string;
  /** webview URI of an optional stylesheet */
  styleUri?: string;
  /** webview.cspSource: the origin the webview's local resources are served from */
  cspSource: string;
  /** fresh random base64 per render */
  nonce: string;
  title: string;
}

const NONCE = /^[A-Za-z0-9+/=_-]{16,}$/;
// A CSP source list must not be able to close the directive or open a new one.
const CSP_SOURCE = /^(?:'self'|[^;,'"\s<>]+)(?: (?:'self'|[^;,'"\s<>]+))*$/;

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function renderWebviewHtml(opts: WebviewHtmlOptions): string {
  if (!NONCE.test(opts.nonce)) throw new Error('webview nonce must be at least 16 base64 characters');
  if (!CSP_SOURCE.test(opts.cspSource)) throw new Error(`invalid cspSource: ${JSON.stringify(opts.cspSource)}`);
  const nonce = escapeHtml(opts.nonce);
  const style =
    opts.styleUri === undefined
      ? ''
      : `\n  <link rel="stylesheet" nonce="${nonce}" href="${escapeHtml(opts.styleUri)}">`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(opts.cspSource, opts.nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <title>${escapeHtml(opts.title)}</title>${style}
</head>
<body>
  <div id="app"></div>
  <script nonce="${nonce}" src="${escapeHtml(opts.scriptUri)}"></script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
