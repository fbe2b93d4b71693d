import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderWebviewHtml } from '../../extension/editor/webviewHtml.ts';

const base = {
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  cspSource: 'https://*.vscode-cdn.net',
  nonce: 'q1w2e3r4t5y6u7i8o9p0aa==',
  title: 'Timeline',
};

const cspOf = (html: string): string => /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';

test('strict CSP: nothing by default, scripts only by nonce, styles from the bundle origin or nonce', () => {
  const csp = cspOf(renderWebviewHtml(base));
  assert.equal(
    csp,
    "default-src 'none'; script-src 'nonce-q1w2e3r4t5y6u7i8o9p0aa=='; style-src https://*.vscode-cdn.net 'nonce-q1w2e3r4t5y6u7i8o9p0aa=='; img-src https://*.vscode-cdn.net data:; font-src https://*.vscode-cdn.net".replace(
      /'/g,
      '&#39;',
    ),
  );
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*(?!\.vscode-cdn)/);
});

test('the one script is the bundle, carrying the nonce', () => {
  const html = renderWebviewHtml(base);
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(scripts, [`<script nonce="${base.nonce}" src="${base.scriptUri}">`]);
  assert.doesNotMatch(html, /<link/);
  assert.match(
    renderWebviewHtml({ ...base, styleUri: 'https://x.vscode-cdn.net/dist/webview.css' }),
    /<link rel="stylesheet" nonce="[^"]+" href="https:\/\/x\.vscode-cdn\.net\/dist\/webview\.css">/,
  );
});

test('title and URIs are escaped, never markup', () => {
  const html = renderWebviewHtml({
    ...base,
    title: '</title><script>alert(1)</script>',
    scriptUri: 'x.js"><script>alert(2)</script>',
  });
  assert.equal([...html.matchAll(/<script\b/g)].length, 1);
  assert.match(html, /<title>&lt;\/title&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/title>/);
});

test("code-server's cspSource ('self' plus the CDN) is accepted", () => {
  assert.match(
    renderWebviewHtml({ ...base, cspSource: "'self' https://*.vscode-cdn.net" }),
    /style-src &#39;self&#39; https:\/\/\*\.vscode-cdn\.net &#39;nonce-/,
  );
});

test('a nonce or cspSource that could widen the policy is refused', () => {
  assert.throws(() => renderWebviewHtml({ ...base, nonce: 'short' }), /nonce/);
  assert.throws(() => renderWebviewHtml({ ...base, nonce: "abc' 'unsafe-inline' 'x12345678" }), /nonce/);
  assert.throws(() => renderWebviewHtml({ ...base, cspSource: "https://a; script-src 'unsafe-inline'" }), /cspSource/);
  assert.throws(() => renderWebviewHtml({ ...base, cspSource: '*"' }), /cspSource/);
});
