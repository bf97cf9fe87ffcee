/**
 * `agate-gate status [NUMBER] [--wait DURATION] [--json]`: the `agate` check of the pull
 * request's live head as data (the App's status block, checks/gate/status-block.ts), for the
 * agent that opened it. Two GitHub reads per look, with the agent's own token; nothing written.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import {
  type StatusInput,
  statusReport,
  UnreadableStatusError,
} from "../../checks/gate/status-report.js";
import { CLI_PACKAGE } from "../../checks/handoff/verify.js";
import { parseDuration } from "../../schemas/duration.js";
import type { StatusReport } from "../../schemas/gate-status.js";
import { gitMaybe } from "../git/git.js";
import { StatusAccessError, StatusGitHub, StatusRateLimited, TOKEN_HELP } from "./status-github.js";

export const STATUS_USAGE = `${CLI_PACKAGE} status [NUMBER] [--wait DURATION] [--json] [--repo OWNER/NAME] [--app SLUG]
    The agate check of the pull request's live head (NUMBER, or the open pull request of the
    checked-out branch): its state, whether your HEAD is what it is about (stale), the next work
    items with the failing commands' last output, the budgets. --wait waits (backing off, within
    GitHub's rate limits) until it is not waiting any more. Reads with AGATE_GITHUB_TOKEN,
    GITHUB_TOKEN or GH_TOKEN (checks: read, pull requests: read); writes nothing. --app (or
    AGATE_APP_SLUG) names the agate App whose check counts (default agate); --json prints the
    report (schemas/agate-status.schema.json). Exit status: 0 accepted, 1 work for the agent,
    2 a usage or access error, 3 a person must act, 4 a budget is spent or attempts stalled,
    5 still waiting, 6 not gated.`;

type Env = Record<string, string | undefined>;

export class StatusUsageError extends Error {
  override readonly name = "StatusUsageError";
}

const OPTIONS = {
  wait: { type: "string" },
  json: { type: "boolean" },
  repo: { type: "string" },
  app: { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies NonNullable<ParseArgsConfig["options"]>;

export interface StatusOptions {
  number?: number | undefined;
  repo?: string | undefined;
  app?: string | undefined;
  /** How long to wait for the head's check to leave waiting; 0: one look. */
  waitMs: number;
}

/** How a status is read: GitHub, the checkout, and a clock that --wait can sleep on. */
export interface StatusDeps {
  env: Env;
  cwd: string;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Called with each look --wait takes (the loop says each state it passes through). */
  onLook?: (report: StatusReport) => void;
}

/** While HEAD is ahead of the head GitHub shows (a push not seen yet), --wait waits this long. */
const PUSH_GRACE_MS = 60_000;
const MAX_INTERVAL_MS = 60_000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function repositoryOf(option: string | undefined, env: Env, cwd: string): [string, string] {
  const named = option ?? env.GITHUB_REPOSITORY;
  // Else the checkout's origin: git@host:owner/name.git or https://host/owner/name(.git).
  const origin = named
    ? undefined
    : gitMaybe(cwd, ["remote", "get-url", "origin"])
        ?.trim()
        .match(/[:/]([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/);
  const full = named ?? (origin ? `${origin[1]}/${origin[2]}` : undefined);
  const [owner, repo, extra] = (full ?? "").split("/");
  if (!owner || !repo || extra !== undefined) {
    throw new StatusUsageError(
      `${full ? `${JSON.stringify(full)} is not a repository` : "no repository"}: pass --repo OWNER/NAME, or set GITHUB_REPOSITORY, or run in a checkout whose origin is the repository`,
    );
  }
  return [owner, repo];
}

/** The agate App whose check counts: --app, AGATE_APP_SLUG, AGATE_APP_LOGIN without [bot]. */
export function appSlugOf(option: string | undefined, env: Env): string {
  return option || env.AGATE_APP_SLUG || env.AGATE_APP_LOGIN?.replace(/\[bot\]$/, "") || "agate";
}

interface Checkout {
  sha: string;
  branch: string;
  uncommitted: boolean;
}

/** The checkout `status` runs in, when there is one on a branch. */
function checkoutOf(cwd: string): Checkout | null {
  const root = gitMaybe(cwd, ["rev-parse", "--show-toplevel"])?.trim();
  if (!root) return null;
  const branch = gitMaybe(root, ["symbolic-ref", "--short", "-q", "HEAD"])?.trim();
  const sha = gitMaybe(root, ["rev-parse", "--verify", "-q", "HEAD"])?.trim();
  if (!branch || !sha) return null;
  const porcelain = gitMaybe(root, ["status", "--porcelain"]) ?? "";
  return { sha, branch, uncommitted: porcelain.trim() !== "" };
}

function relation(
  cwd: string,
  local: string,
  head: string,
): NonNullable<StatusInput["local"]>["relation"] {
  if (local === head) return "same";
  const isAncestor = (a: string, b: string) =>
    gitMaybe(cwd, ["merge-base", "--is-ancestor", a, b]) !== undefined;
  if (gitMaybe(cwd, ["cat-file", "-e", `${head}^{commit}`]) === undefined) {
    return "unknown";
  }
  if (isAncestor(head, local)) return "ahead";
  if (isAncestor(local, head)) return "behind";
  return "diverged";
}

/** A status reader bound to one pull request: each look costs two GitHub calls. */
export class StatusReader {
  private number: number | undefined;

  private constructor(
    private readonly github: StatusGitHub,
    private readonly appSlug: string,
    private readonly cwd: string,
    number: number | undefined,
  ) {
    this.number = number;
  }

  static create(options: StatusOptions, deps: StatusDeps): StatusReader {
    const token = deps.env.AGATE_GITHUB_TOKEN || deps.env.GITHUB_TOKEN || deps.env.GH_TOKEN;
    if (!token) {
      throw new StatusAccessError(
        `no token: set AGATE_GITHUB_TOKEN, GITHUB_TOKEN or GH_TOKEN to ${TOKEN_HELP}`,
      );
    }
    const [owner, repo] = repositoryOf(options.repo, deps.env, deps.cwd);
    const baseUrl = (deps.env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
    return new StatusReader(
      new StatusGitHub(token, owner, repo, baseUrl),
      appSlugOf(options.app, deps.env),
      deps.cwd,
      options.number,
    );
  }

  get repository(): string {
    return this.github.fullName;
  }

  /** One look: the pull request, then the check runs on its head. */
  async read(): Promise<StatusReport> {
    const checkout = checkoutOf(this.cwd);
    let pull: Awaited<ReturnType<StatusGitHub["pullRequest"]>>;
    if (this.number === undefined) {
      if (!checkout) {
        throw new StatusUsageError(
          "no pull request named and no branch checked out here: pass its number (status 12)",
        );
      }
      const found = await this.github.pullRequestForBranch(checkout.branch);
      if (!found) {
        throw new StatusUsageError(
          `no open pull request has ${this.repository}:${checkout.branch} as its head: push the branch and open one, or pass the number`,
        );
      }
      // Found once; each later look reads the pull request itself (one call either way).
      this.number = found.number;
      pull = found;
    } else {
      pull = await this.github.pullRequest(this.number);
    }
    const { runs } = await this.github.agateCheckRuns(pull.head_sha);
    const mine = runs
      .filter((r) => r.app === this.appSlug && r.head_sha === pull.head_sha)
      .sort((a, b) => b.id - a.id)[0];
    const others = [...new Set(runs.filter((r) => r.app !== this.appSlug).map((r) => r.app))];
    // The checkout counts when it is the pull request's branch: HEAD is the agent's work.
    const local =
      checkout && checkout.branch === pull.head_ref
        ? { ...checkout, relation: relation(this.cwd, checkout.sha, pull.head_sha) }
        : null;
    return statusReport({
      repository: this.repository,
      pull,
      check: mine ?? null,
      others,
      appSlug: this.appSlug,
      local,
    });
  }
}

/**
 * Looks until the check is not waiting (or, just after a push, until GitHub shows it), backing
 * off from AGATE_STATUS_POLL_MS (default 10 s) to a minute, and sleeping out a rate limit when
 * the deadline allows. Returns the last look; a rate limit past the deadline is thrown.
 */
export async function readStatus(
  reader: StatusReader,
  waitMs: number,
  deps: StatusDeps,
): Promise<StatusReport> {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? realSleep;
  const started = now();
  const deadline = started + waitMs;
  let interval = Number(deps.env.AGATE_STATUS_POLL_MS) || 10_000;
  for (;;) {
    let report: StatusReport;
    try {
      report = await reader.read();
      deps.onLook?.(report);
    } catch (error) {
      if (!(error instanceof StatusRateLimited) || now() + error.waitMs > deadline) throw error;
      await sleep(error.waitMs);
      continue;
    }
    const pushing = report.stale && report.local !== null && now() - started < PUSH_GRACE_MS;
    const settled = report.action !== "wait" && !(pushing && isAhead(report));
    if (settled || now() >= deadline) return report;
    await sleep(Math.max(0, Math.min(interval, deadline - now())));
    interval = Math.min(interval * 1.5, MAX_INTERVAL_MS);
  }
}

/** HEAD is ahead of the head GitHub shows: a push GitHub has not taken in yet, perhaps. */
const isAhead = (report: StatusReport) => report.local?.relation === "ahead";

/** The report as a person (or an agent) reads it on a terminal. */
export function statusText(report: StatusReport): string {
  const lines = [report.line];
  const gate = report.gate;
  if (report.next.length > 1) {
    lines.push("", "Next:", ...report.next.map((item) => `  - ${item}`));
  }
  for (const c of report.stale ? [] : (gate?.failing_commands ?? [])) {
    const how = c.timed_out
      ? "timed out"
      : c.signal
        ? `killed by ${c.signal}`
        : `exit ${c.exit_code}`;
    lines.push("", `${c.name} (${how}), the end of its output:`);
    lines.push(
      ...c.output_tail
        .split("\n")
        .slice(-40)
        .map((l) => `  | ${l}`),
    );
  }
  if (!report.stale && gate && gate.evaluator_missing.length > 0) {
    lines.push("", "The evaluator says missing:", ...gate.evaluator_missing.map((m) => `  - ${m}`));
  }
  if (!report.stale && gate && gate.handoff_problems.length > 0) {
    lines.push("", "The handoff file:", ...gate.handoff_problems.map((m) => `  - ${m}`));
  }
  if (gate?.budgets) {
    const b = gate.budgets;
    lines.push(
      "",
      `Graded attempts: ${b.graded_attempts} of ${b.graded_attempts_limit}; stalled after ${b.unchanged_failures_before_stalled} unchanged failures in a row.`,
    );
  }
  if (report.check?.url) lines.push(`The check: ${report.check.url}`);
  return `${lines.join("\n")}\n`;
}

interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export async function statusMain(argv: string[], deps: StatusDeps, out: Output): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
    } catch (error) {
      throw new StatusUsageError((error as Error).message);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      out.stdout(`${STATUS_USAGE}\n`);
      return 0;
    }
    if (positionals.length > 1) {
      throw new StatusUsageError(`status takes at most one NUMBER; got ${positionals.join(" ")}`);
    }
    const number =
      positionals[0] === undefined ? undefined : Number(positionals[0].replace(/^#/, ""));
    if (number !== undefined && (!Number.isInteger(number) || number < 1)) {
      throw new StatusUsageError(`${JSON.stringify(positionals[0])} is not a pull request number`);
    }
    const waitMs = values.wait === undefined ? 0 : parseDuration(values.wait);
    if (waitMs === undefined) {
      throw new StatusUsageError(
        `--wait ${JSON.stringify(values.wait)} is not a duration such as 30s, 10m or 1h`,
      );
    }
    const reader = StatusReader.create(
      { number, repo: values.repo, app: values.app, waitMs },
      deps,
    );
    const report = await readStatus(reader, waitMs, deps);
    out.stdout(values.json ? `${JSON.stringify(report)}\n` : statusText(report));
    return report.exit_code;
  } catch (error) {
    if (error instanceof StatusUsageError) {
      out.stderr(`agate status: ${error.message}\nrun ${CLI_PACKAGE} status --help for usage\n`);
      return 2;
    }
    if (error instanceof StatusAccessError || error instanceof UnreadableStatusError) {
      out.stderr(`agate status: ${error.message}\n`);
      return 2;
    }
    if (error instanceof StatusRateLimited) {
      out.stderr(`agate status: ${error.message}: ask again then\n`);
      return 5;
    }
    throw error;
  }
}
