/**
 * The `command` evaluator: the repository's own program, run inside a bubblewrap sandbox with the
 * bundle on stdin and the verdict on stdout. No sandbox, no run.
 */
import type { EvaluationBundle, EvaluationOutcome } from "../../schemas/evaluation.js";
import { askTwice } from "./ask-twice.js";
import { runEvaluatorCommand } from "./command.js";
import type { CommandEvaluatorConfig, Judge, JudgeOptions, JudgeResult } from "./judge.js";
import { prepareSandbox } from "./sandbox.js";

const DEFAULT_KILL_GRACE_MS = 5_000;
/** What a refused answer is shown as in the command's `previous_attempt`. */
const PREVIOUS_OUTPUT_LIMIT = 64 * 1024;

export function commandJudge(config: CommandEvaluatorConfig, options: JudgeOptions): Judge {
  return {
    kind: "command",
    async judge(request) {
      const started = performance.now();
      let requests = 0;
      const finish = (outcome: EvaluationOutcome): JudgeResult => ({
        outcome,
        run: {
          kind: "command",
          provider: null,
          model: null,
          prompt_version: request.bundle.prompt_version,
          input_tokens: null,
          output_tokens: null,
          latency_ms: Math.round(performance.now() - started),
          requests,
        },
      });
      // No sandbox, no run: the command never executes outside one. (Invalid sandbox settings
      // never get here: the App refuses to start on them.)
      const prepared = await prepareSandbox(options.sandbox);
      if (!prepared.ok) {
        return finish({ status: "failed", error: prepared.error, fix: prepared.fix });
      }
      const outcome = await askTwice(
        async (previous) => {
          requests += 1;
          const bundle: EvaluationBundle = {
            ...request.bundle,
            previous_attempt: previous
              ? { output: previous.output.slice(0, PREVIOUS_OUTPUT_LIMIT), error: previous.error }
              : null,
          };
          const result = await runEvaluatorCommand({
            run: config.run,
            input: JSON.stringify(bundle),
            sandbox: prepared.sandbox,
            timeoutMs: config.timeout,
            killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
            signal: request.signal,
          });
          return result.ok ? { ok: true, text: result.stdout } : result;
        },
        (error) => ({
          error: `evaluator.run printed no valid verdict, malformed twice: ${error}`,
          fix: 'make evaluator.run in .github/agate.yml on the base branch print only the verdict JSON {"complete", "score", "missing", "evidence"} on stdout (logs go to stderr); on the retry, the bundle\'s previous_attempt says what was refused and why',
        }),
      );
      return finish(outcome);
    },
  };
}
