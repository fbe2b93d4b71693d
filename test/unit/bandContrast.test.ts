// A graph break's band down the timeline (webview/overlays.ts drawMarks) is told from the page in VS Code's three
// default themes: its alpha raised (ink.visibleAlpha) where the faint one read as nothing (high contrast's black).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAND_VISIBLE, contrast, over, visibleAlpha, type Rgba } from '../../webview/ink.ts';
import { THEMES } from '../webview/themes.ts';

const hex = (h: string): Rgba => [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16)).concat(1) as unknown as Rgba;
const laid = (colour: Rgba, alpha: number, page: Rgba): Rgba => over([colour[0], colour[1], colour[2], alpha], page);

test('the graph-break band stands out from the page in light, dark and high contrast', () => {
  for (const theme of THEMES) {
    const page = hex(theme.colours['editor-background']!);
    const warning = hex(theme.colours['editorWarning-foreground']!);
    const alpha = visibleAlpha(warning, page, 0.12);
    const ratio = contrast(laid(warning, alpha, page), page);
    assert.ok(ratio >= BAND_VISIBLE, `${theme.name}: ${ratio.toFixed(2)}:1 at alpha ${alpha}`);
    // still faint: the slices under it read through
    assert.ok(alpha <= 0.3, `${theme.name}: alpha ${alpha}`);
  }
  // the band as it was (0.12 on black): the review's "nearly invisible"
  const hc = THEMES.find((t) => t.name === 'high-contrast')!;
  const black = hex(hc.colours['editor-background']!);
  assert.ok(contrast(laid(hex(hc.colours['editorWarning-foreground']!), 0.12, black), black) < BAND_VISIBLE);
});
