/** The `agate` check run: written, and found again among the runs on a commit. */
import type { CheckRunWrite } from "../checks/gate/plan.js";
import { GATE_CHECK_NAME } from "../schemas/gate.js";
import type { AgateCheckRun } from "../schemas/store.js";
import { at, NOT_RESENT, type Repo } from "./call.js";

/** The check-run buttons, by the identifier GitHub sends back in `requested_action`. */
export const RERUN_GATE = "rerun-gate";
export const RERUN_EVALUATOR = "rerun-evaluator";

/** Creates the `agate` check run on `sha`, or updates `existing`; the run as GitHub now has it. */
export async function writeAgateCheckRun(
  r: Repo,
  sha: string,
  existing: AgateCheckRun | null,
  write: CheckRunWrite,
): Promise<AgateCheckRun> {
  const output = { title: write.title.slice(0, 255), summary: write.summary };
  const fields = {
    ...at(r),
    status: write.conclusion === null ? ("in_progress" as const) : ("completed" as const),
    external_id: write.externalId,
    output,
    actions: [
      { label: "Re-run gate", description: "Recompute agate's decision", identifier: RERUN_GATE },
      ...(write.rerunEvaluator
        ? [
            {
              label: "Re-run evaluator",
              description: "Ask the evaluator again",
              identifier: RERUN_EVALUATOR,
            },
          ]
        : []),
    ],
    ...(write.conclusion !== null
      ? { conclusion: write.conclusion, completed_at: new Date().toISOString() }
      : {}),
  };
  if (existing) {
    r.count("checks/update");
    const updated = await r.client.rest.checks.update({ ...fields, check_run_id: existing.id });
    return agateCheckRunOf(updated.data);
  }
  r.count("checks/create");
  const created = await r.client.rest.checks.create({
    ...fields,
    name: GATE_CHECK_NAME,
    head_sha: sha,
    request: NOT_RESENT,
  });
  return agateCheckRunOf(created.data);
}

/**
 * The App's own newest `agate` check run on a commit, with when it started and its external id
 * (a merge group's check keeps the group's base there). Same-named runs of others are ignored.
 */
export async function agateCheckRun(
  r: Repo,
  appSlug: string,
  sha: string,
): Promise<AgateCheckRun | null> {
  r.count("checks/list-for-ref");
  const runs = await r.client.paginate(r.client.rest.checks.listForRef, {
    ...at(r),
    ref: sha,
    check_name: GATE_CHECK_NAME,
    filter: "all",
    per_page: 100,
  });
  const run = runs
    .filter((c) => c.app?.slug === appSlug && c.head_sha === sha)
    .sort((a, b) => b.id - a.id)[0];
  return run ? agateCheckRunOf(run) : null;
}

/** A check run as GitHub returns it from a listing, a create or an update. */
function agateCheckRunOf(run: {
  id: number;
  status: string;
  conclusion: string | null;
  started_at: string | null;
  external_id: string | null;
  output: { title: string | null; summary: string | null };
}): AgateCheckRun {
  return {
    id: run.id,
    status: run.status,
    conclusion: run.conclusion ?? null,
    title: run.output.title ?? null,
    summary: run.output.summary ?? null,
    startedAt: run.started_at ?? null,
    externalId: run.external_id ?? null,
  };
}

/**
 * Every app's newest `agate` check run on a commit (GitHub's `filter=latest`: one per app), one
 * page, as GitHub answers it: whose is whose is the caller's to judge.
 */
export async function latestAgateCheckRuns(r: Repo, sha: string) {
  r.count("checks/list-for-ref");
  const { data } = await r.client.rest.checks.listForRef({
    ...at(r),
    ref: sha,
    check_name: GATE_CHECK_NAME,
    filter: "latest",
    per_page: 100,
  });
  return data;
}
