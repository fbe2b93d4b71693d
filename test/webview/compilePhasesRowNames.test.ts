// How a compile row's name wraps in the label column: its time on the line of its name's last word, a number with its
// word, and "made no graph" on one line (review 10H E12, 11K K5, 17X X9).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { phasesOpener } from './compilePhasesPage.ts';

const openPhases = phasesOpener();

describe('compile phases', () => {
  test("a row's time stays on the line of its name's last word, and a number with its word: never a line of its own (review 10H E12, 11K K5)", async () => {
    for (const [folder, width] of [
      ['reports/fused-cpu', 560],
      ['recorded/train_small-cpu', 560],
      ['recorded/train_small-cpu', 700],
      ['reports/ddp-ranks-cpu', 560],
    ] as const) {
      const page = await openPhases(folder, width);
      const alone = await page
        .locator('.compile-phases .phase-row:not(.phase-axis) .phase-label')
        .evaluateAll((labels) =>
          labels.flatMap((label) => {
            // the name's last word, its "·" and its time: from the last break before "·" to the label's end
            const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
            let last: Text | null = null;
            for (let n = walker.nextNode(); n; n = walker.nextNode())
              if (n.textContent!.includes('·')) last = n as Text;
            if (!last) return [`${label.textContent}: no "·"`];
            const dot = last.textContent.lastIndexOf('·');
            // and a last word that is a number with the word before it (review 11K K5: "dimension / 0 · 901 ms")
            const number = /[^\s\u00a0]+[\s\u00a0]+[^\p{L}\s\u00a0]+[\s\u00a0]+·$/u.exec(
              last.textContent.slice(0, dot + 1),
            );
            const word = number ? number.index : Math.max(0, last.textContent.lastIndexOf(' ', dot) + 1);
            if (word === dot) return [`${label.textContent}: "·" after a breakable space`];
            if (
              !/\p{L}/u.test(
                last.textContent
                  .slice(0, dot)
                  .trim()
                  .split(/[\s\u00a0]/)
                  .pop()!,
              ) &&
              !number
            )
              return [`${label.textContent}: its last word, a number, not held to the word before it`];
            const range = document.createRange();
            range.setStart(last, word);
            range.setEndAfter(label.lastChild!);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            return tops.size === 1 ? [] : [`${label.textContent}: its last word and time on ${tops.size} lines`];
          }),
        );
      assert.deepEqual(alone, [], folder);
      await page.close();
    }
  });

  test('a row name\'s closing phrase "made no graph" on one line where the label column wraps (review 17X X9: "made no / graph" at 560 px)', async () => {
    for (const width of [560, 700]) {
      const page = await openPhases('recorded/train_small-cpu', width);
      const split = await page
        .locator('.compile-phases .phase-row:not(.phase-axis) .phase-label')
        .evaluateAll((labels) =>
          labels.flatMap((label) => {
            const text = label.textContent.replace(/\u00a0/g, ' ');
            const at = text.indexOf('made no graph');
            if (at < 0) return [];
            // the phrase's characters' lines: one
            const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
            const tops = new Set<number>();
            let seen = 0;
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              const length = n.textContent!.length;
              for (let k = Math.max(at, seen); k < Math.min(at + 'made no graph'.length, seen + length); k++) {
                const range = document.createRange();
                range.setStart(n, k - seen);
                range.setEnd(n, k - seen + 1);
                for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
              }
              seen += length;
            }
            return tops.size > 1 ? [`${text}: "made no graph" on ${tops.size} lines`] : [];
          }),
        );
      assert.deepEqual(split, [], `${width} px`);
      await page.close();
    }
  });
});
