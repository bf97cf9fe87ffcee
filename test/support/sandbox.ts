import { it, type TestFunction } from "vitest";
import { commandSandboxProblem } from "../../app/evaluator/sandbox.js";
import { loadEvaluatorSettings } from "../../app/evaluator/settings.js";

/**
 * Tests that start real bubblewrap sandboxes (the `command` evaluator) need bubblewrap and a host
 * that lets it make namespaces; macOS has none, and a fresh Linux machine often lacks it. They run
 * wherever the App's own probe makes a sandbox, and are skipped elsewhere with the reason in their
 * name, so `npm test` passes on a machine with git and Node only.
 *
 * `.ci/run` installs bubblewrap and sets AGATE_REQUIRE_SANDBOX=1: there a sandbox that cannot be
 * made fails each such test instead, so CI never passes by skipping them.
 */
export const REQUIRE_SANDBOX = "AGATE_REQUIRE_SANDBOX";

/** Why no sandbox can be made here (the App's probe, on this process's PATH), or null. */
export const sandboxProblem: string | null = await (async () => {
  const sandbox = loadEvaluatorSettings({ PATH: process.env.PATH }).judgeOptions.sandbox;
  const problem = await commandSandboxProblem(sandbox);
  return problem === null ? null : problem.error;
})();

/** The reason a sandbox test does not run here, or null when it runs. */
export function sandboxSkipReason(
  problem: string | null = sandboxProblem,
  env: NodeJS.ProcessEnv = process.env,
): { skip: string } | { fail: string } | null {
  if (problem === null) return null;
  if (env[REQUIRE_SANDBOX] === "1") {
    return {
      fail: `${REQUIRE_SANDBOX}=1 and no sandbox can be made: ${problem}. Install bubblewrap 0.8 or later and allow unprivileged user namespaces (docs/evaluator.md#the-command-sandbox)`,
    };
  }
  return {
    skip: `needs bubblewrap: ${problem}; set ${REQUIRE_SANDBOX}=1 to fail instead of skipping`,
  };
}

/**
 * `it` for a test that starts a real sandbox: run where one can be made; skipped with the reason
 * in its name elsewhere; failing with the reason under AGATE_REQUIRE_SANDBOX=1.
 */
export function itWithSandbox(name: string, fn: TestFunction, timeout?: number): void {
  const reason = sandboxSkipReason();
  if (reason === null) it(name, fn, timeout);
  else if ("skip" in reason) it.skip(`${name} [skipped: ${reason.skip}]`, fn);
  else
    it(name, () => {
      throw new Error(reason.fail);
    });
}
