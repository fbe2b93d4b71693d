// Debian's Chromium as every browser test launches it (webview harness and code-server e2e): headless, offline.
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
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

/**
 * The webview harness's browser: Debian's chromium-headless-shell, Chromium's old headless mode (the same Blink and V8
 * as CHROMIUM without the full browser around them). A page costs ~0.2 CPU-s there against ~0.7, the webview suite
 * ~50 CPU-s against ~135 (docs/BENCHMARKS.md#test-time).
 */
export const HEADLESS_SHELL = { ...CHROMIUM, executablePath: '/usr/bin/chromium-headless-shell' };
