// The timeline webview against hostile strings: names, args and report strings render as text, nothing executes or
// loads, and the CSP blocks what a successful injection would do.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scanTraceBytes } from '../../extension/node/trace/byteScanner.ts';
import { errorsOf, holdBrowser, openWebview, post, postPanes, record, slicePoint } from './harness.ts';
import { sampleReport } from './sampleReport.ts';

const browser = holdBrowser();

describe('webview security', () => {
  const HOSTILE = [
    '<script>window.__pwned = "script"</script>',
    '<img src=x onerror="window.__pwned=\'img\'">',
    'javascript:window.__pwned="js-url"',
    '"><svg onload="window.__pwned=\'svg\'">',
    '<meta http-equiv="Content-Security-Policy" content="script-src \'unsafe-inline\'"><script>window.__pwned=\'meta\'</script>',
    '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    '<style>@import "https://evil.test/x.css";</style>',
    '<link rel=stylesheet href="https://evil.test/y.css">',
  ] as const;

  test('hostile names, args and report strings render as text; nothing executes or loads', async () => {
    const page = await openWebview(browser());
    const events = HOSTILE.flatMap((name, k) => [
      {
        ph: 'X',
        cat: 'cpu_op',
        name,
        pid: 1,
        tid: name,
        ts: 100 + k * 10,
        dur: 8,
        args: { correlation: k + 1, 'Input Dims': name },
      },
      {
        ph: 'X',
        cat: 'kernel',
        name,
        pid: 0,
        tid: 7,
        ts: 102 + k * 10,
        dur: 5,
        args: { correlation: k + 1, grid: [1, 1, 1], block: [name, 1, 1] },
      },
    ]);
    const model = scanTraceBytes(new TextEncoder().encode(JSON.stringify({ traceEvents: events })));
    const report = sampleReport(HOSTILE[2]);
    report.target.name = HOSTILE[0];
    report.recommendation.reason = HOSTILE[1];
    const source = { kind: 'report' as const, reportPath: HOSTILE[4] };
    await post(page, { type: 'report', title: HOSTILE[3], source, report, traces: 2 });
    await postPanes(page, HOSTILE[3], source, [
      { label: HOSTILE[1], trace: model },
      { label: HOSTILE[5], trace: model },
    ]);
    await page.locator('.panes').focus();
    await page.keyboard.press('0');
    for (const name of HOSTILE) {
      const point = await slicePoint(page, 0, name);
      await page.mouse.move(point.x, point.y);
      await page.mouse.click(point.x, point.y);
      assert.equal(await page.locator('.details h3').innerText(), name);
    }
    await page.locator('.panes').focus();
    await page.keyboard.type('script');
    await page.locator('vscode-textfield').click();
    await page.keyboard.type(HOSTILE[1]);
    await page.locator('.report button.link').click();
    await page.waitForTimeout(300);
    const dom = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      scripts: document.querySelectorAll('script').length,
      injected:
        document.querySelectorAll('img, iframe, svg, object, embed, link, a[href]').length +
        document.querySelectorAll('meta[http-equiv]').length -
        1,
      handlers: [...document.querySelectorAll('*')].filter((node) =>
        [...node.attributes].some((a) => a.name.startsWith('on')),
      ).length,
      styles: document.querySelectorAll('style').length,
    }));
    assert.deepEqual(dom, { pwned: undefined, scripts: 1, injected: 0, handlers: 0, styles: 1 });
    assert.ok((await page.locator('h1').innerText()).includes('<svg onload'), 'title shown as text');
    const { cspViolations, posted } = await record(page);
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(
      posted.at(-1),
      { type: 'reveal', file: HOSTILE[2], line: 57 },
      'a javascript: location is only data to the host',
    );
    assert.deepEqual(errorsOf(page), []);
    assert.equal(page.url(), 'https://webview.test/');
    await page.close();
  });

  test('the CSP really blocks what a successful injection would do', async () => {
    const page = await openWebview(browser());
    await page.evaluate(() => {
      const inline = document.createElement('script');
      inline.textContent = 'window.__pwned = "inline"';
      document.body.append(inline);
      const img = document.createElement('img');
      img.src = 'https://evil.test/pixel.png';
      document.body.append(img);
    });
    await page.waitForTimeout(300);
    const { cspViolations } = await record(page);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.ok(
      cspViolations.some((v) => v.startsWith('script-src')),
      cspViolations.join(', '),
    );
    assert.ok(
      cspViolations.some((v) => v.startsWith('img-src')),
      cspViolations.join(', '),
    );
    await page.close();
  });
});
