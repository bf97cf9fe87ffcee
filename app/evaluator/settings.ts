/**
 * The evaluator's settings, read from the environment at the App's start with its other settings
 * (app/runtime/settings.ts): AGATE_EVALUATOR_TIMEOUT, AGATE_EVALUATOR_RETRIES and
 * AGATE_EVALUATOR_BASE_URLS alone; the allowed commands, the sandbox, the API keys and where they
 * may go together (policy.ts says what each may be), with what the sandbox takes from the App's
 * environment, captured then.
 */
import { z } from "zod";
import {
  duration,
  type Environment,
  isHttpUrl,
  optionalText,
  SettingsError,
  wholeNumber,
} from "../kit/env.js";
import { API_KEY_VARIABLES } from "./api-keys.js";
import type { JudgeOptions } from "./judge.js";
import {
  apiKeyUrlsFrom,
  commandSandboxSettingsFrom,
  type EvaluatorPolicy,
  evaluatorSettingsProblems,
  parseEvaluatorPolicy,
} from "./policy.js";
import { SYSTEM_PATH } from "./sandbox-bwrap.js";
import { appPlacesOf, commandProgramProblem } from "./sandbox-places.js";

/** The evaluator's settings that are one variable each; the rest is checked in `evaluatorFrom`. */
export const evaluatorEnvShape = {
  AGATE_EVALUATOR_TIMEOUT: duration(
    "AGATE_EVALUATOR_TIMEOUT",
    "set it to how long one evaluator request may take, such as 90s or 5m, or leave it unset for 2m",
    "2m",
  ),
  AGATE_EVALUATOR_RETRIES: wholeNumber(
    "AGATE_EVALUATOR_RETRIES",
    0,
    10,
    "set it to how many times a failed evaluator request is retried (429, 5xx, network), 0-10, or leave it unset for 2",
    2,
  ),
  AGATE_EVALUATOR_BASE_URLS: optionalText.pipe(
    z
      .string()
      .default("")
      .refine((text) => text.split(/[,\n]/).every((u) => u.trim() === "" || isHttpUrl(u.trim())), {
        error: (issue) =>
          `AGATE_EVALUATOR_BASE_URLS is ${JSON.stringify(issue.input)}: list absolute URLs such as http://localhost:11434/v1, separated by commas`,
      }),
  ),
};

/**
 * The evaluator's settings as typed values: the operator's allow-lists (AGATE_EVALUATOR_BASE_URLS,
 * AGATE_EVALUATOR_COMMANDS), and the options every judge gets (API keys by variable with
 * AGATE_EVALUATOR_API_KEY_URL, the command sandbox with what it takes from the App's environment,
 * AGATE_EVALUATOR_TIMEOUT, AGATE_EVALUATOR_RETRIES).
 */
export interface EvaluatorSettings {
  policy: EvaluatorPolicy;
  judgeOptions: JudgeOptions;
}

/**
 * The evaluator's settings alone, checked as `loadSettings` checks them: for tests and tools that
 * build judges the way the App does. SettingsError listing every problem.
 */
export function loadEvaluatorSettings(
  env: Environment,
  options: { cwd?: string } = {},
): EvaluatorSettings {
  const parsed = z.object(evaluatorEnvShape).safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
  const evaluator = evaluatorFrom(env, options.cwd ?? process.cwd());
  problems.push(...evaluator.problems);
  if (!parsed.success || problems.length > 0 || evaluator.values === null) {
    throw new SettingsError(problems);
  }
  return evaluatorSettings(parsed.data, evaluator.values);
}

export type EvaluatorValues = Omit<
  EvaluatorSettings["judgeOptions"],
  "timeoutMs" | "maxRetries"
> & {
  policy: EvaluatorPolicy;
};

export function evaluatorSettings(
  data: { AGATE_EVALUATOR_TIMEOUT: number; AGATE_EVALUATOR_RETRIES: number },
  { policy, ...judgeOptions }: EvaluatorValues,
): EvaluatorSettings {
  return {
    policy,
    judgeOptions: {
      ...judgeOptions,
      timeoutMs: data.AGATE_EVALUATOR_TIMEOUT,
      maxRetries: data.AGATE_EVALUATOR_RETRIES,
    },
  };
}

/**
 * The evaluator's settings that span variables or the host: the sandbox's (app/evaluator/policy.ts
 * says what each may be), each allowed command's program (it must be there for the sandbox to
 * run it), the keys and where they may go; and what the sandbox takes from the App's environment,
 * captured now. `values` is null when there is a problem.
 */
export function evaluatorFrom(
  env: Environment,
  cwd: string,
): { problems: string[]; values: EvaluatorValues | null } {
  const problems = evaluatorSettingsProblems(env);
  const policy = parseEvaluatorPolicy(env);
  const sandbox = commandSandboxSettingsFrom(env);
  // With the sandbox's paths wrong, where a program would be found is not known yet.
  if (sandbox.ok) {
    for (const command of policy.commands) {
      const problem = commandProgramProblem(command, sandbox.settings);
      if (problem !== null) problems.push(problem);
    }
  }
  if (problems.length > 0 || !sandbox.ok) return { problems, values: null };

  const apiKeys: Partial<Record<(typeof API_KEY_VARIABLES)[number], string>> = {};
  for (const variable of API_KEY_VARIABLES) {
    const value = env[variable]?.trim();
    if (value) apiKeys[variable] = value;
  }
  const passEnv: Record<string, string> = {};
  for (const name of sandbox.settings.env) {
    const value = env[name];
    if (value !== undefined) passEnv[name] = value;
  }
  const text = (value: string | undefined) => value?.trim() || undefined;
  return {
    problems,
    values: {
      policy,
      apiKeys,
      apiKeyUrls: apiKeyUrlsFrom(env),
      sandbox: {
        ...sandbox.settings,
        searchPath: text(env.PATH) ?? SYSTEM_PATH,
        passEnv,
        appPlaces: appPlacesOf({
          cwd,
          home: text(env.HOME),
          privateKeyPath: text(env.PRIVATE_KEY_PATH),
          databaseUrl: text(env.AGATE_DATABASE_URL),
        }),
      },
    },
  };
}
