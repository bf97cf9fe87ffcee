// Check runs and suites. A check run belongs to the app whose token created it; only that app
// may update it, which is what makes the `agate` run's source trustworthy.
import * as s from "../serialize.js";
import type { CheckConclusion, CheckRun, CheckStatus, Repository } from "../state.js";
import { NotFound } from "../world.js";
import {
  bodyOf,
  type Ctx,
  countedPage,
  HttpError,
  json,
  numberParam,
  type OperationTable,
  queryString,
  repoOf,
  tokenOf,
} from "./context.js";

type Output = { title?: string; summary?: string; text?: string; annotations?: unknown[] };

function runJson(ctx: Ctx, repo: Repository, run: CheckRun) {
  return s.checkRun(ctx.world.urls, repo, run, ctx.world.pullsForSha(repo, run.headSha));
}

function shaOfRef(ctx: Ctx, repo: Repository): string {
  const ref = ctx.params.ref ?? "";
  const sha =
    repo.git.resolveCommit(`refs/heads/${ref}`) ??
    repo.git.resolveCommit(`refs/tags/${ref}`) ??
    (/^[0-9a-f]{7,40}$/.test(ref) ? repo.git.resolveCommit(ref) : undefined);
  if (!sha) throw new NotFound(`No commit found for SHA: ${ref}`);
  return sha;
}

/** `filter=latest` (the default) keeps the most recent run per name, as GitHub does. */
function filterRuns(ctx: Ctx, runs: CheckRun[]): CheckRun[] {
  const name = queryString(ctx, "check_name");
  const status = queryString(ctx, "status");
  const appId = queryString(ctx, "app_id");
  let selected = runs
    .filter((run) => !name || run.name === name)
    .filter((run) => !status || run.status === status)
    .filter((run) => !appId || String(run.app.id) === appId)
    .sort((a, b) => b.id - a.id);
  if ((queryString(ctx, "filter") ?? "latest") === "latest") {
    const seen = new Set<string>();
    selected = selected.filter((run) => {
      const key = `${run.app.id}/${run.name}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return selected;
}

/**
 * What a create or an update may set besides the name (and a create's start): status,
 * conclusion, completion, external id, details URL, output; each only when the body has it.
 */
function runFields(body: Record<string, unknown>) {
  return {
    ...(body.status !== undefined ? { status: body.status as CheckStatus } : {}),
    ...(body.conclusion !== undefined ? { conclusion: body.conclusion as CheckConclusion } : {}),
    ...(typeof body.completed_at === "string" ? { completedAt: body.completed_at } : {}),
    ...(typeof body.external_id === "string" ? { externalId: body.external_id } : {}),
    ...(typeof body.details_url === "string" ? { detailsUrl: body.details_url } : {}),
    ...(body.output ? { output: body.output as Output } : {}),
  };
}

/** The check run the path names, or 404. */
function runOf(ctx: Ctx, repo: Repository): CheckRun {
  const run = repo.checkRuns.get(numberParam(ctx, "check_run_id"));
  if (!run) throw new NotFound("Not Found");
  return run;
}

/** The check suite the path names, or 404. */
function suiteOf(ctx: Ctx, repo: Repository) {
  const suite = repo.checkSuites.get(numberParam(ctx, "check_suite_id"));
  if (!suite) throw new NotFound("Not Found");
  return suite;
}

export const checkOperations: OperationTable = {
  "checks/create": {
    auth: "token",
    permission: ["checks", "write"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const token = tokenOf(ctx);
      const body = bodyOf(ctx);
      const { run } = ctx.world.createCheckRun(repo, token.app, token.actor, {
        name: String(body.name),
        headSha: String(body.head_sha),
        ...(typeof body.started_at === "string" ? { startedAt: body.started_at } : {}),
        ...runFields(body),
      });
      return json(201, runJson(ctx, repo, run));
    },
  },

  "checks/update": {
    auth: "token",
    permission: ["checks", "write"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const token = tokenOf(ctx);
      const run = runOf(ctx, repo);
      if (run.app.id !== token.app.id) {
        // Only the app that created a check run may change it.
        throw new HttpError(
          403,
          `Invalid app_id \`${token.app.id}\` - check run can only be modified by its creator.`,
        );
      }
      const body = bodyOf(ctx);
      void ctx.world.updateCheckRun(repo, run, token.actor, {
        ...(typeof body.name === "string" ? { name: body.name } : {}),
        ...runFields(body),
      });
      return json(200, runJson(ctx, repo, run));
    },
  },

  "checks/get": {
    auth: "token",
    permission: ["checks", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const run = runOf(ctx, repo);
      return json(200, runJson(ctx, repo, run));
    },
  },

  "checks/list-for-ref": {
    auth: "token",
    permission: ["checks", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const sha = shaOfRef(ctx, repo);
      const runs = filterRuns(
        ctx,
        [...repo.checkRuns.values()].filter((run) => run.headSha === sha),
      );
      return countedPage(ctx, "check_runs", runs, (run) => runJson(ctx, repo, run));
    },
  },

  "checks/list-for-suite": {
    auth: "token",
    permission: ["checks", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const suite = suiteOf(ctx, repo);
      const runs = filterRuns(ctx, ctx.world.runsOfSuite(repo, suite));
      return countedPage(ctx, "check_runs", runs, (run) => runJson(ctx, repo, run));
    },
  },

  "checks/get-suite": {
    auth: "token",
    permission: ["checks", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const suite = suiteOf(ctx, repo);
      return json(200, suiteJson(ctx, repo, suite.id));
    },
  },

  "checks/list-suites-for-ref": {
    auth: "token",
    permission: ["checks", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const sha = shaOfRef(ctx, repo);
      const appId = queryString(ctx, "app_id");
      const suites = [...repo.checkSuites.values()]
        .filter((suite) => suite.headSha === sha)
        .filter((suite) => !appId || String(suite.app.id) === appId);
      return countedPage(ctx, "check_suites", suites, (suite) => suiteJson(ctx, repo, suite.id));
    },
  },
};

function suiteJson(ctx: Ctx, repo: Repository, id: number) {
  const suite = repo.checkSuites.get(id);
  if (!suite) throw new NotFound("Not Found");
  return s.checkSuite(
    ctx.world.urls,
    repo,
    suite,
    ctx.world.runsOfSuite(repo, suite),
    repo.git.readCommit(suite.headSha),
    ctx.world.pullsForSha(repo, suite.headSha),
    ctx.world.pushedAtOf(repo),
  );
}
