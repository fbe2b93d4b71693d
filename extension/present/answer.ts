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
  /** the answer's pay-back (its pays-back-after reason) where this number is the answer's: one pay-back on every
   *  surface, the answer's; evidence, and a number too noisy to back a verdict, have none */
  paysBack: Reason | null;
}

/** THE number, then the evidence: every number the answer holds. */
export const answerNumbers = (answer: Answer | undefined): AnswerNumber[] =>
  answer ? [...(answer.number ? [answer.number] : []), ...(answer.evidence ?? [])] : [];

/** What the answer says of modes[index] or measurements[index]; null for a report made before answers. */
export function saidOf(answer: Answer | undefined, index: number): Said | null {
  if (!answer) return null;
  const number =
    answerNumbers(answer).find((n) => (n.kind === 'target-rounds' || n.kind === 'replay-call') && n.index === index) ??
    null;
  return {
    number,
    unmeasured: (answer.unmeasured ?? []).find((r) => r.index === index) ?? null,
    paysBack: number && number === answer.number ? paysBackOf(answer) : null,
  };
}

/** The answer's pay-back: after how many steps (calls) its compile pays back; null where it says none. */
export const paysBackOf = (answer: Answer | undefined): Reason | null =>
  answer?.reasons.find((r) => r.code === 'pays-back-after') ?? null;

/** Which way a number may be said to point: faster or slower only where the runner says it backs one (schema 1.26:
 *  its direction); null where it is too noisy or was timed on a busy host. A number of an answer before 1.26: by its
 *  value unless it was too noisy for a range. */
export function directionOf(n: AnswerNumber): 'faster' | 'slower' | null {
  if (n.direction !== undefined) return n.direction === 'faster' || n.direction === 'slower' ? n.direction : null;
  return n.tooNoisy ? null : n.value < 1 ? 'slower' : 'faster';
}

/** The script's own steps or calls in situ, as the answer holds them. */
export const inSituNumber = (answer: Answer | undefined, unit: 'step' | 'call'): AnswerNumber | null =>
  answerNumbers(answer).find((n) => n.kind === `in-situ-${unit}`) ?? null;

/** The answer's reasons in its sentence's words, in order. */
export const reasonTexts = (answer: Answer | undefined, codes?: string[]): string[] =>
  (answer?.reasons ?? []).filter((r) => !codes || codes.includes(r.code)).map((r) => r.text ?? r.code);
