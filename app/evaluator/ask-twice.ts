/**
 * The loop both evaluator kinds share: ask, and on a malformed answer ask once more, saying
 * exactly what was wrong. A second malformed answer fails the evaluation.
 */
import { parseVerdictText } from "../../checks/evaluator/parse-verdict.js";
import type { EvaluationOutcome } from "../../schemas/evaluation.js";

/** One answer from an evaluator, or a failure that ends the evaluation. */
export type Answer =
  | {
      ok: true;
      text: string;
      /** Overrides the parse: the answer is known to be unusable. */
      problem?: string;
    }
  | { ok: false; error: string; fix: string };

export interface Previous {
  output: string;
  error: string;
}

export async function askTwice(
  ask: (previous: Previous | null) => Promise<Answer>,
  malformed: (error: string) => { error: string; fix: string },
): Promise<EvaluationOutcome> {
  let previous: Previous | null = null;
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const answer = await ask(previous);
    if (!answer.ok) return { status: "failed", error: answer.error, fix: answer.fix };
    const parsed = answer.problem
      ? { ok: false as const, error: answer.problem }
      : parseVerdictText(answer.text);
    if (parsed.ok) return { status: "verdict", verdict: parsed.verdict };
    previous = { output: answer.text, error: parsed.error };
  }
  return { status: "failed", ...malformed(previous?.error ?? "no answer") };
}

/** What the evaluator is told after a malformed answer: exactly what was wrong, and what to send. */
export function correctionMessage(error: string): string {
  return `Your answer was refused: ${error}. Answer again with only the JSON object {"complete": boolean, "score": number from 0 to 1, "missing": [strings], "evidence": [strings]} and nothing else.`;
}
