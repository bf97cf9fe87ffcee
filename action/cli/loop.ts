/**
 * `agate-gate loop -- AGENT COMMAND`: the generic loop for any agent (docs/agents.md). It asks
 * agate about the checkout branch's pull request (status --wait), hands the agent the next work
 * (a file of text, and the status JSON: never the check run's Markdown), and after each turn of
 * the agent runs the required commands locally (`run`: a failure there is the next work, and
 * nothing is pushed, so no graded attempt is spent on it), pushes, and asks again, until agate
 * accepts, a person is needed (one more turn to hand over), a budget is spent, or the turns run
 * out. Its exit codes are status's.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AGATE_CLI, CLI_PACKAGE } from "../../checks/handoff/verify.js";
import { shortSha } from "../../checks/markdown.js";
import { parseDuration } from "../../schemas/duration.js";
import { STATUS_EXIT_CODES, type StatusReport } from "../../schemas/gate-status.js";
import { systemExecutable } from "../git/executables.js";
import { gitMaybe, localStateDir } from "../git/git.js";
import { handoverReason, workReason } from "./hooks.js";
import { readStatus, type StatusDeps, StatusReader, StatusUsageError } from "./status.js";
import { StatusAccessError, StatusRateLimited } from "./status-github.js";

export const LOOP_USAGE = `${CLI_PACKAGE} loop [--task TEXT] [--max-turns N] [--wait DURATION] -- AGENT [ARG...]
    The generic loop for any agent: asks agate about the pull request of the checked-out
    branch (status --wait, default 30m), runs AGENT with the next work in the file
    $AGATE_WORK_FILE (the status as JSON in $AGATE_STATUS_FILE), then runs the required commands
    here (a failure is the next work; nothing is pushed), pushes the branch and asks again; until
    agate accepts (0), a person is needed (3; the agent gets one turn to hand over), a budget is
    spent (4), agate still waits (5), it does not gate the pull request (6), or --max-turns
    (default 10) run out (1); 2 a usage or access error (a failed push too), 7 AGENT exited
    non-zero. --task runs AGENT first with that task. AGENT must commit its work;
    the loop pushes commits, never the work tree. Takes --repo and --app as status does.`;

type Env = Record<string, string | undefined>;

const OPTIONS = {
  task: { type: "string" },
  "max-turns": { type: "string" },
  wait: { type: "string" },
  repo: { type: "string" },
  app: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A child process to its end: its exit code, and the end of what it printed (when captured). */
function runChild(
  command: string,
  args: string[],
  options: { cwd: string; env: Env; capture: boolean },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: options.capture ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-64_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

function usage(message: string): never {
  throw new StatusUsageError(message);
}

export async function loopMain(argv: string[], deps: StatusDeps, out: Output): Promise<number> {
  const split = argv.indexOf("--");
  const own = split === -1 ? argv : argv.slice(0, split);
  const agent = split === -1 ? [] : argv.slice(split + 1);
  const log = (line: string) => out.stdout(`agate loop: ${line}\n`);
  try {
    let values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS }>>["values"];
    try {
      ({ values } = parseArgs({ args: own, options: OPTIONS }));
    } catch (error) {
      usage((error as Error).message);
    }
    if (values.help) {
      out.stdout(`${LOOP_USAGE}\n`);
      return 0;
    }
    const [command, ...args] = agent;
    if (!command) usage("name the agent's command after --, such as: loop -- ./agent.sh");
    const maxTurns = values["max-turns"] === undefined ? 10 : Number(values["max-turns"]);
    if (!Number.isInteger(maxTurns) || maxTurns < 1) usage("--max-turns takes a whole number");
    const waitMs = parseDuration(values.wait ?? "30m");
    if (waitMs === undefined) usage(`--wait ${JSON.stringify(values.wait)} is not a duration`);
    const root = gitMaybe(deps.cwd, ["rev-parse", "--show-toplevel"])?.trim();
    if (!root) usage("run the loop in the agent's checkout (a git work tree)");
    const dir = join(localStateDir(root), "loop");
    mkdirSync(dir, { recursive: true });
    const files = { work: join(dir, "work.md"), status: join(dir, "status.json") };
    const reader = StatusReader.create({ repo: values.repo, app: values.app, waitMs }, deps);
    const turn = makeTurns({ command, args, root, deps, files, maxTurns, log });

    let work = values.task ?? null;
    let report: StatusReport | null = null;
    for (;;) {
      if (work !== null) {
        const ran = await turn(work, report);
        if (ran !== null) return ran;
        work = await afterTurn(root, deps, log);
        if (work !== null) continue;
      }
      report = await look(reader, waitMs, deps, log);
      writeFileSync(files.status, `${JSON.stringify(report, null, 2)}\n`);
      switch (report.action) {
        case "done":
        case "none":
        case "wait":
          log(report.line);
          return report.exit_code;
        case "person":
        case "spent": {
          log(`${report.line} Handing over to a person.`);
          const ran = await turn(handoverReason(report), report);
          return ran ?? report.exit_code;
        }
        case "work":
          work = workReason(
            report,
            "agate (the merge gate) says this pull request is not done yet. Do the work below and commit it; the loop runs the required commands, pushes and asks agate again.",
          );
      }
    }
  } catch (error) {
    if (error instanceof StatusUsageError || error instanceof StatusAccessError) {
      out.stderr(`agate loop: ${error.message}\n`);
      return 2;
    }
    if (error instanceof StatusRateLimited) {
      out.stderr(`agate loop: ${error.message}\n`);
      return STATUS_EXIT_CODES.wait;
    }
    throw error;
  }
}

/** Runs the agent for one turn; a number when the loop ends (turns spent, the agent failed). */
function makeTurns(input: {
  command: string;
  args: string[];
  root: string;
  deps: StatusDeps;
  files: { work: string; status: string };
  maxTurns: number;
  log: (line: string) => void;
}): (work: string, report: StatusReport | null) => Promise<number | null> {
  let turns = 0;
  return async (work, report) => {
    if (turns >= input.maxTurns) {
      input.log(`${input.maxTurns} turns and agate still has work for the agent; stopping.`);
      return 1;
    }
    turns++;
    writeFileSync(input.files.work, `${work}\n`);
    if (!report) rmSync(input.files.status, { force: true });
    input.log(`turn ${turns}: running the agent`);
    const { code } = await runChild(input.command, input.args, {
      cwd: input.root,
      env: {
        ...input.deps.env,
        AGATE_WORK_FILE: input.files.work,
        AGATE_STATUS_FILE: input.files.status,
        AGATE_TURN: String(turns),
      },
      capture: false,
    });
    if (code !== 0) {
      input.log(`the agent exited ${code}; stopping.`);
      return 7;
    }
    return null;
  };
}

/**
 * After the agent's turn: its commits are checked here first (`run`), then pushed. The next work
 * when they cannot go out yet (uncommitted changes, a failing command), else null.
 */
async function afterTurn(
  root: string,
  deps: StatusDeps,
  log: (line: string) => void,
): Promise<string | null> {
  if ((gitMaybe(root, ["status", "--porcelain"]) ?? "").trim() !== "") {
    return "Commit your changes: the loop pushes commits, never the work tree, and agate grades commits. Commit (or discard) everything `git status` shows.";
  }
  // This very CLI, as it was started (a bundle, or its sources under a loader).
  const self = [...process.execArgv, process.argv[1] ?? ""];
  const local = await runChild(process.execPath, [...self, "run"], {
    cwd: root,
    env: deps.env,
    capture: true,
  });
  if (local.code !== 0) {
    log(`the required commands fail here (run exited ${local.code}); not pushing`);
    return `The required commands fail in your checkout (\`${AGATE_CLI} run\` exited ${local.code}); fix that and commit before anything is pushed. Its output, the end:\n\n${local.output.slice(-8_000)}`;
  }
  const branch = gitMaybe(root, ["symbolic-ref", "--short", "-q", "HEAD"])?.trim();
  if (!branch) return "Check out the pull request's branch: HEAD is detached.";
  // The person's own git and credentials: this push is the agent's, not agate's.
  const git = systemExecutable("git", { searchPath: deps.env.PATH });
  const pushed = await runChild(git, ["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`], {
    cwd: root,
    env: deps.env,
    capture: true,
  });
  if (pushed.code !== 0) {
    throw new StatusAccessError(`git push failed (${pushed.code}): ${pushed.output.trim()}`);
  }
  const sha = gitMaybe(root, ["rev-parse", "HEAD"])?.trim() ?? "";
  log(`pushed ${shortSha(sha)} to ${branch}; the required commands passed here`);
  return null;
}

/** status --wait, saying each state it passes through (waiting, then the verdict). */
async function look(
  reader: StatusReader,
  waitMs: number,
  deps: StatusDeps,
  log: (line: string) => void,
): Promise<StatusReport> {
  let said = "";
  return readStatus(reader, waitMs, {
    ...deps,
    onLook: (report) => {
      const now = `${report.state} ${report.head_sha}`;
      if (now !== said) log(`${report.state} on ${shortSha(report.head_sha)}`);
      said = now;
    },
  });
}
