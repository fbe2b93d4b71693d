// A script-mode region's first-call story: the runner's words (schema 1.23, region `story`: report/story.py), shown as
// they are. A report written before the runner said it gets the calls' events listed, never a sentence made up here.
import type { Region } from '../shared/report.ts';

/** The runner's story of the region; before schema 1.23, its compiles and eager calls listed by call. */
export function regionStory(region: Region): string | null {
  if (region.story !== undefined) return region.story;
  const listed = region.calls.flatMap((c) => [
    ...(c.event !== 'cached' ? [`call ${c.index}: ${c.event}`] : []),
    ...(c.ranCompiled === false ? [`call ${c.index}: ran eagerly`] : []),
  ]);
  return listed.length ? listed.join(' · ') : null;
}
