import type { CommandRecord } from "../../schemas/command-record.js";
import type { ChangedFile, CommandsCheckRunFact, WorkflowRunFact } from "../../schemas/gate.js";
import { recordPassed } from "../command-results.js";
import { shortSha as short } from "../markdown.js";
import { extractRecord } from "../record-embedding.js";

/** The app whose check runs a workflow's GITHUB_TOKEN creates. */
export const ACTIONS_APP_SLUG = "github-actions";

export interface ProvenanceInput {
  checkRun: CommandsCheckRunFact;
  /** The workflow run the record names, as the Actions API reports it; null when it does not exist. */
  run: WorkflowRunFact | null;
  headSha: string;
  changedFiles: readonly ChangedFile[];
  /** The digest the App computed from the base config itself. */
  configDigest: string;
}

export type ProvenanceVerdict =
  | { status: "verified"; record: CommandRecord }
  | { status: "waiting"; record: CommandRecord; reason: string }
  | { status: "refused"; record: CommandRecord | null; reason: string };

/**
 * Whether a command record counts: only when GitHub's own data confirms what it says. Each
 * refusal names the check that failed, so the summary can say why the evidence was not believed.
 */
export function verifyProvenance(input: ProvenanceInput): ProvenanceVerdict {
  const { checkRun, run, headSha } = input;
  // A check run of the same name from any other app (or a person's token) is not evidence.
  if (checkRun.app_slug !== ACTIONS_APP_SLUG) {
    return refuse(
      null,
      `agate/commands was created by ${checkRun.app_slug ?? "an unknown app"}, not by a GitHub Actions workflow`,
    );
  }
  const extracted = extractRecord(checkRun.text);
  if (!extracted.ok) return refuse(null, extracted.reason);
  const record = extracted.record;
  if (!record.workflow) {
    return refuse(
      record,
      "it was made outside GitHub Actions (agate run), so GitHub cannot confirm it",
    );
  }
  // The workflow must have read the same base config the App reads, or it ran other commands.
  if (record.grader.config_digest !== input.configDigest) {
    return refuse(
      record,
      `it was made under config digest ${record.grader.config_digest.slice(0, 12)}, the base config's is ${input.configDigest.slice(0, 12)}`,
    );
  }
  const claimedHead =
    record.pull_request?.head_sha ?? record.merge_group?.head_sha ?? record.tested.sha;
  if (claimedHead !== headSha) {
    return refuse(record, `it is for ${short(claimedHead)}, not for the head ${short(headSha)}`);
  }
  // On pull_request, actions/checkout tests the merge commit, whose parent is the head.
  if (record.tested.sha !== headSha && !record.tested.parents.includes(headSha)) {
    return refuse(
      record,
      `it tested ${short(record.tested.sha)}, which is neither the head nor a merge of it`,
    );
  }
  const runId = record.workflow.run_id;
  if (!run) return refuse(record, `workflow run ${runId} does not exist`);
  if (run.head_sha !== headSha) {
    return refuse(
      record,
      `workflow run ${runId} ran for ${short(run.head_sha)}, not for the head ${short(headSha)}`,
    );
  }
  // A workflow the pull request edits could print any record it likes.
  const modified = input.changedFiles.some(
    (f) => f.filename === run.path || f.previous_filename === run.path,
  );
  if (modified)
    return refuse(record, `the pull request modifies ${run.path}, the workflow that made it`);
  if (run.run_attempt !== record.workflow.run_attempt) {
    return refuse(
      record,
      `it was made by attempt ${record.workflow.run_attempt} of workflow run ${runId}, which is now at attempt ${run.run_attempt}`,
    );
  }

  const jobKey = record.workflow.job;
  // The API names a job by its display name: the key, or "key (matrix values)".
  const job = run.jobs.find((j) => j.name === jobKey || j.name.startsWith(`${jobKey} (`));
  if (!job) {
    return run.status === "completed"
      ? refuse(record, `workflow run ${runId} has no job ${jobKey}`)
      : wait(record, `workflow run ${runId} has not started job ${jobKey} yet`);
  }
  if (job.status !== "completed") {
    return wait(
      record,
      `job ${job.name} of workflow run ${runId} is still running, so the runner has not given its conclusion`,
    );
  }
  // The step that published the record is the one running when GitHub stamped the check run.
  const stamp = checkRun.completed_at ?? checkRun.started_at;
  const published = stamp ? Date.parse(stamp) : Number.NaN;
  // GitHub stamps times to the second; an exact fit wins over one within that rounding.
  const within = (slackMs: number) =>
    job.steps.find(
      (s) =>
        s.started_at !== null &&
        s.completed_at !== null &&
        Date.parse(s.started_at) - slackMs <= published &&
        published <= Date.parse(s.completed_at) + slackMs,
    );
  const step = within(0) ?? within(1_000);
  if (!step)
    return refuse(record, `no step of job ${job.name} was running when the record was published`);
  if (recordPassed(record) && step.conclusion !== "success") {
    return refuse(
      record,
      `it says passed, the runner says the step "${step.name}" ${step.conclusion ?? "did not finish"}`,
    );
  }
  return { status: "verified", record };
}

const refuse = (record: CommandRecord | null, reason: string): ProvenanceVerdict => ({
  status: "refused",
  record,
  reason,
});
const wait = (record: CommandRecord, reason: string): ProvenanceVerdict => ({
  status: "waiting",
  record,
  reason,
});
