// The runner's answer (schema 1.21: native-runner/compile_lens_runner/report/answer.py decides it, sentences.py words
// it), read here and never composed: which measurement holds a number and its words, why one holds none. Every
// surface takes a speedup, its range and its sentence from here. A report made before 1.21 has no answer: its
// surfaces show the runner's headline and reason of the time, and its raw numbers without a verdict of ours.
import type { Answer, AnswerNumber, Reason } from '../shared/report.ts';

/** What the answer says of one measurement (a target's modes[k], a region's measurements[k]). */
export interface Said {
  /** its number, with the runner's words for it; null: not measured (see unmeasured) */
  number: AnswerNumber | null;
  /** why it holds no number */
  unmeasured: Reason | null;
}

/** THE number, then the evidence: every number the answer holds. */
export const answerNumbers = (answer: Answer | undefined): AnswerNumber[] =>
  answer ? [...(answer.number ? [answer.number] : []), ...(answer.evidence ?? [])] : [];

/** What the answer says of modes[index] or measurements[index]; null for a report made before answers. */
export function saidOf(answer: Answer | undefined, index: number): Said | null {
  if (!answer) return null;
  return {
    number:
      answerNumbers(answer).find(
        (n) => (n.kind === 'target-rounds' || n.kind === 'replay-call') && n.index === index,
      ) ?? null,
    unmeasured: (answer.unmeasured ?? []).find((r) => r.index === index) ?? null,
  };
}

/** The script's own steps or calls in situ, as the answer holds them. */
export const inSituNumber = (answer: Answer | undefined, unit: 'step' | 'call'): AnswerNumber | null =>
  answerNumbers(answer).find((n) => n.kind === `in-situ-${unit}`) ?? null;

/** The answer's reasons in its sentence's words, in order. */
export const reasonTexts = (answer: Answer | undefined, codes?: string[]): string[] =>
  (answer?.reasons ?? []).filter((r) => !codes || codes.includes(r.code)).map((r) => r.text ?? r.code);
