/**
 * Debian's chromium-headless-shell as every browser test launches it (webview harness and code-server e2e): Chromium's
 * old headless mode, the same Blink and V8 as the full browser without the browser around them; headless, offline. A
 * webview page costs ~0.2 CPU-s there against ~0.7 in the full browser, and the e2e suite's workbench loads less too
 * (docs/BENCHMARKS.md#test-time, sixth and seventh passes).
 */
export const HEADLESS_SHELL = {
  executablePath: '/usr/bin/chromium-headless-shell',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
