import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import * as core from "@actions/core";
import { failedCommands } from "../checks/command-results.js";
import { ConfigurationError } from "../checks/errors.js";
import { GITHUB_TEXT_LIMIT } from "../checks/markdown.js";
import { embedRecord } from "../checks/record-embedding.js";
import { actionInputsSchema } from "../schemas/action.js";
import type { CommandRecord } from "../schemas/command-record.js";
import { type EventContext, readEventContext } from "./event.js";
import { git, gitMaybe } from "./git.js";
import { ActionGitHub } from "./github.js";
import { type RunLog, runRequiredCommands } from "./required-commands.js";
import { headline, renderRecordMarkdown } from "./summary.js";

/** The Action's entry point; every failure ends in core.setFailed with what to fix. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    await runAction(env);
  } catch (error) {
    if (error instanceof ConfigurationError) annotate(error);
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}

function readInputs() {
  const names = Object.keys(actionInputsSchema.shape) as (keyof typeof actionInputsSchema.shape)[];
  const raw = Object.fromEntries(
    names
      .map((name) => [name, core.getInput(name) || undefined])
      .filter(([, v]) => v !== undefined),
  );
  const parsed = actionInputsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `agate: invalid inputs: ${parsed.error.issues.map((i) => i.message).join("; ")}`,
    );
  }
  return parsed.data;
}

async function runAction(env: NodeJS.ProcessEnv): Promise<void> {
  const inputs = readInputs();
  const cwd = resolve(inputs["working-directory"]);
  const context = readEventContext(env);
  const repository =
    env.GITHUB_REPOSITORY ?? (context.kind === "other" ? context.repository : null);
  const [owner, repo] = (repository ?? "").split("/");
  const github =
    inputs.token && owner && repo
      ? new ActionGitHub(inputs.token, owner, repo, env.GITHUB_API_URL)
      : undefined;

  const outcome = await runRequiredCommands({
    cwd,
    configPath: inputs.config,
    baseSha: baseSha(cwd, context),
    env,
    log: actionsLog(),
    readViaApi: github ? (sha, path) => github.readFileAtCommit(sha, path) : undefined,
    repository: repository ?? null,
    pullRequest: context.kind === "pull_request" ? context.event.pull_request : undefined,
    mergeGroup: context.kind === "merge_group" ? context.event.merge_group : undefined,
  });
  if (outcome.kind === "not-adopted") {
    core.info(
      `agate: the base commit ${outcome.baseSha} has no ${inputs.config}, so this repository has not adopted agate; nothing to do.`,
    );
    return;
  }

  const record = outcome.record;
  const recordPath = inputs["record-path"]
    ? resolve(cwd, inputs["record-path"])
    : join(env.RUNNER_TEMP ?? join(cwd, ".git"), "agate", "command-record.json");
  mkdirSync(dirname(recordPath), { recursive: true });
  writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);

  const failed = failedCommands(record);
  core.setOutput("passed", failed.length === 0);
  core.setOutput("record-path", recordPath);
  core.setOutput("tested-sha", record.tested.sha);
  core.setOutput("tree-sha", record.tested.tree_sha);
  core.setOutput("failed-commands", JSON.stringify(failed));

  const markdown = renderRecordMarkdown(record);
  if (env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown).write();
  await publish(github, context, record, markdown);

  if (failed.length > 0) {
    const message = `agate: ${headline(record)}: ${failed.join(", ")}`;
    if (inputs["fail-on-command-failure"]) core.setFailed(message);
    else core.warning(`${message} (not failing the step: fail-on-command-failure is false)`);
  } else {
    core.info(`agate: ${headline(record)}.`);
  }
}

/** The config is read at the base: the pull request's or merge group's, else the default branch. */
function baseSha(cwd: string, context: EventContext): string {
  if (context.kind !== "other") return context.baseSha;
  if (context.defaultBranch) {
    gitMaybe(cwd, ["fetch", "--no-tags", "--quiet", "--depth=1", "origin", context.defaultBranch]);
    const sha =
      gitMaybe(cwd, ["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"]) ??
      gitMaybe(cwd, [
        "rev-parse",
        "--verify",
        "--quiet",
        `origin/${context.defaultBranch}^{commit}`,
      ]);
    if (sha) return sha.trim();
  }
  core.warning("agate: cannot find the default branch's commit; reading the config at HEAD.");
  return git(cwd, ["rev-parse", "HEAD"]).trim();
}

async function publish(
  github: ActionGitHub | undefined,
  context: EventContext,
  record: CommandRecord,
  summary: string,
): Promise<void> {
  if (!github || !record.workflow) {
    core.warning(
      "agate: no token or repository, so the command record was not published for the App; it is in the job summary and the record-path file.",
    );
    return;
  }
  const headSha =
    context.kind === "pull_request"
      ? context.event.pull_request.head.sha
      : context.kind === "merge_group"
        ? context.event.merge_group.head_sha
        : record.tested.sha;
  try {
    const check = await github.createCommandsCheckRun({
      headSha,
      passed: failedCommands(record).length === 0,
      title: headline(record),
      summary,
      recordJson: embedRecord(record, GITHUB_TEXT_LIMIT),
      externalId: `${record.workflow.run_id}:${record.workflow.run_attempt}:${record.workflow.job}`,
    });
    core.info(`agate: published the command record as check run ${check.id} ${check.url}`);
  } catch (error) {
    const status = (error as { status?: number }).status;
    const why =
      status === 403 || status === 404
        ? "the token may not create check runs (a fork's pull request, or the workflow lacks `permissions: checks: write`)"
        : (error as Error).message;
    core.warning(
      `agate: could not publish the command record as a check run: ${why}. The App cannot see this run's evidence; the record is in the job summary and the record-path file.`,
    );
  }
}

/**
 * The Actions log. The commands' output is the pull request's code talking, so workflow commands
 * in it (`::set-output`, `::add-mask::`, `::endgroup::`, ...) are switched off while it streams,
 * with a token it cannot guess.
 */
function actionsLog(): RunLog {
  return {
    info: (line) => core.info(line),
    async command(name, run) {
      core.startGroup(`agate: ${name}`);
      const token = randomBytes(16).toString("hex");
      process.stdout.write(`::stop-commands::${token}\n`);
      try {
        return await run();
      } finally {
        process.stdout.write(`\n::${token}::\n`);
        core.endGroup();
      }
    },
    output: (chunk) => process.stdout.write(chunk),
  };
}

function annotate(error: ConfigurationError): void {
  for (const problem of error.problems) {
    core.error(problem.path ? `${problem.path}: ${problem.message}` : problem.message, {
      title: "agate config",
      file: error.file,
      startLine: problem.line,
      startColumn: problem.column,
    });
  }
}
