import picomatch from "picomatch";
import { type CommandRecord, recordArtifactName } from "../../schemas/command-record.js";
import type { Config } from "../../schemas/config.js";
import type {
  ChangedFile,
  ChangedFilesListing,
  CommandEvidence,
  EvidenceRunFact,
  EvidenceSourceFact,
} from "../../schemas/gate.js";
import { recordPassed } from "../command-results.js";
import { codeSpan, shortSha as short } from "../markdown.js";
import { isolationProblem } from "./isolation.js";
import { evidenceSourceChanges } from "./workflow-uses.js";

/** What the record must have been made for: a pull request's head, or a merge group's. */
export type EvidenceTarget =
  | {
      kind: "pull_request";
      /** The pull request and its base now: a run counts only if it was made for them. */
      number: number;
      baseRef: string;
      headSha: string;
      /** Test merge commits GitHub reported for this head: the only other commits it may test. */
      mergeCommits: readonly string[];
    }
  | { kind: "merge_group"; headSha: string };

export interface ProvenanceInput {
  target: EvidenceTarget;
  repository: string;
  /** The base config (the pinned evidence source and the required commands). */
  config: Config;
  /** The digest the App computed from the base config itself. */
  configDigest: string;
  source: EvidenceSourceFact;
  run: EvidenceRunFact;
  changedFiles: readonly ChangedFile[];
  listing: ChangedFilesListing;
}

export type ProvenanceVerdict =
  | { status: "verified"; record: CommandRecord }
  | { status: "waiting"; record: CommandRecord | null; reason: string }
  | { status: "refused"; record: CommandRecord | null; reason: string };

const EVENT_FOR: Record<EvidenceTarget["kind"], string> = {
  pull_request: "pull_request",
  merge_group: "merge_group",
};

/** A rule that failed: it refuses the record, or waits for GitHub to say more. */
type Finding = { status: "refused" | "waiting"; reason: string };

/**
 * Whether the command record of the newest evidence run counts. Everything the record says about
 * itself is written inside a job that runs the pull request's code, so each fact that decides is
 * GitHub's: the run's workflow file, event, head and attempt; the job and the runner's conclusion
 * for the agate step; the artifacts of the run; the tested commit's parents and tree. No time a
 * client can set is read. Each refusal names the rule that failed, for the summary. The rules run
 * in this order, and the first that fails gives the reason.
 */
export function verifyProvenance(input: ProvenanceInput): ProvenanceVerdict {
  const { job } = input.run;
  const record = input.run.record;
  const refuse = (reason: string): ProvenanceVerdict => ({ status: "refused", record, reason });

  const notTheRun = runProblem(input) ?? workflowSourceProblem(input);
  if (notTheRun) return refuse(notTheRun);
  if (!job) return { ...noJobFinding(input), record };
  const upload = jobFinding(input, job);
  if (upload) return { ...upload, record };
  if (!record) {
    return refuse(
      input.run.record_error ?? `artifact ${recordArtifactName(job.run_attempt)} could not be read`,
    );
  }
  const step = stepFinding(input, job, record);
  if (step) return { ...step, record };

  const problem =
    recordMismatch(record, input, job.run_attempt) ??
    testedCommitProblem(record, input) ??
    workTreeProblem(record, input.config) ??
    // Last: how the commands ran decides only for a record that is otherwise this head's own.
    isolationProblem(record, input.config, input.target);
  if (problem) return refuse(problem);
  return { status: "verified", record };
}

/** The run itself: the evidence workflow's, on the target's event, for its head and its base. */
function runProblem(input: ProvenanceInput): string | null {
  const { run } = input.run;
  const { evidence } = input.config;
  const runName = `run ${run.id}`;
  // Another workflow (any file with a token, or a pull_request_target one that runs the pull
  // request's code with a write token) must not be able to supply evidence.
  if (run.path !== evidence.workflow) {
    return `${runName} is of ${codeSpan(run.path, 200)}, not of the evidence workflow ${evidence.workflow} (evidence.workflow)`;
  }
  const event = EVENT_FOR[input.target.kind];
  if (run.event !== event) {
    return `${runName} ran on ${run.event}; evidence counts only from a ${event} run of ${evidence.workflow}`;
  }
  if (run.head_sha !== input.target.headSha) {
    return `${runName} ran for ${short(run.head_sha)}, not for the head ${short(input.target.headSha)}`;
  }
  return runBaseProblem(input);
}

/**
 * On pull_request GitHub runs the workflow file as the pull request has it: only a run of the
 * base's own workflow (and of what it uses locally) is one the author could not rewrite.
 */
function workflowSourceProblem(input: ProvenanceInput): string | null {
  const { evidence } = input.config;
  if (!input.source.exists) {
    return `the base commit has no ${evidence.workflow}, so no run of it can be the base's (add the workflow on the base branch, or set evidence.workflow)`;
  }
  if (input.source.error) {
    return `cannot tell what ${evidence.workflow} runs: ${input.source.error}`;
  }
  if (!input.listing.complete) {
    return `cannot confirm that the change leaves ${evidence.workflow} and what it uses alone: ${input.listing.reason ?? "the file list is incomplete"}`;
  }
  const touched = evidenceSourceChanges(input.changedFiles, input.source);
  if (touched.length > 0) {
    return `the change modifies ${paths(touched)}, which the evidence workflow is or uses, so the workflow that ran is not the base's; a maintainer can accept this exact commit instead`;
  }
  return null;
}

/** A run without the evidence job: wrongly named once the run is over, not started before. */
function noJobFinding(input: ProvenanceInput): Finding {
  const { run } = input.run;
  const { evidence } = input.config;
  return run.status === "completed"
    ? {
        status: "refused",
        reason: `run ${run.id} has no job named ${evidence.job} (evidence.job); name the job that runs agate ${evidence.job}`,
      }
    : { status: "waiting", reason: `run ${run.id} has not started job ${evidence.job} yet` };
}

type EvidenceJob = NonNullable<EvidenceRunFact["job"]>;

/** The job must be over, and must have uploaded exactly one record, for an attempt it has had. */
function jobFinding(input: ProvenanceInput, job: EvidenceJob): Finding | null {
  const { run, artifacts } = input.run;
  const runName = `run ${run.id}`;
  const refused = (reason: string): Finding => ({ status: "refused", reason });
  if (job.status !== "completed") {
    return {
      status: "waiting",
      reason: `job ${job.name} of ${runName} is ${job.status.replace("_", " ")}`,
    };
  }
  // The attempt in a name is the uploader's word: a record named for an attempt the run has not
  // had was uploaded ahead by something in an earlier attempt's job.
  const ahead = artifacts.filter((a) => {
    const attempt = Number(/-attempt-(\d+)$/.exec(a.name)?.[1] ?? Number.NaN);
    return !Number.isInteger(attempt) || attempt > run.run_attempt;
  });
  if (ahead.length > 0) {
    return refused(
      `${runName} has ${ahead.map((a) => codeSpan(a.name, 80)).join(", ")}, named for an attempt it has not had: something in the job uploaded records of its own, so none is believed`,
    );
  }
  const wanted = recordArtifactName(job.run_attempt);
  const named = artifacts.filter((a) => a.name === wanted);
  // Each attempt of the job uploads one record. A second one means something else in the job
  // (the pull request's code can read the runtime token) uploaded a record of its own.
  if (named.length > 1) {
    return refused(
      `${runName} has ${named.length} artifacts named ${wanted}: something besides agate's step uploaded a record in attempt ${job.run_attempt}, so neither is believed`,
    );
  }
  const artifact = named[0];
  if (!artifact) {
    return refused(
      `job ${job.name} of ${runName} (attempt ${job.run_attempt}) finished ${job.conclusion ?? "without a conclusion"} without uploading ${wanted}; did the agate step run?`,
    );
  }
  if (artifact.expired) {
    return refused(`artifact ${wanted} of ${runName} has expired; re-run the job`);
  }
  return null;
}

/** The agate step must be over, and the runner's conclusion for it must agree with the record. */
function stepFinding(
  input: ProvenanceInput,
  job: EvidenceJob,
  record: CommandRecord,
): Finding | null {
  const { evidence } = input.config;
  const refused = (reason: string): Finding => ({ status: "refused", reason });
  const step = job.steps.find((s) => s.name === evidence.step);
  if (!step) {
    return refused(
      `job ${job.name} has no step named ${evidence.step} (evidence.step); give the step that runs agate \`name: ${evidence.step}\``,
    );
  }
  if (step.status !== "completed") {
    return { status: "waiting", reason: `step ${step.name} of job ${job.name} has not completed` };
  }
  // The runner's word on the step, against the record's: agate fails its step exactly when a
  // command failed, so any disagreement means the job was interfered with.
  const passed = recordPassed(record);
  if (passed && step.conclusion !== "success") {
    return refused(
      `the record says every command passed, but the runner says step ${step.name} ${step.conclusion ?? "did not finish"}: something in the job interfered with agate`,
    );
  }
  if (!passed && step.conclusion !== "failure") {
    return refused(
      `the record says a command failed, but the runner says step ${step.name} ${step.conclusion === "success" ? "succeeded" : (step.conclusion ?? "did not finish")}: the evidence workflow must not set fail-on-command-failure: false, or the job was interfered with`,
    );
  }
  return null;
}

/**
 * A run counts only for the base it ran for. On pull_request GitHub runs the workflow file of the
 * test merge, that is the workflow of the base the pull request had when the run was made: a run
 * made while it targeted a branch the agent pushed ran the agent's workflow, however the pull
 * request is targeted now, and its record is whatever that workflow wrote. GitHub lists on the
 * run the pull requests it was made for, each with its base then; the run must list this one,
 * and on no other base. A fork's run lists none (GitHub fills the list only for heads in the
 * repository itself): its base is then the one the events named (every base the pull request
 * had is stored from them, and a head seen under two is never believed: decide.ts).
 */
function runBaseProblem(input: ProvenanceInput): string | null {
  const { target } = input;
  if (target.kind !== "pull_request") return null;
  const { run } = input.run;
  const listed = run.pull_requests;
  if (listed.length === 0) {
    const fork =
      run.head_repository !== null &&
      run.head_repository.toLowerCase() !== input.repository.toLowerCase();
    return fork
      ? null
      : `GitHub lists no pull request on run ${run.id}, so the base it was made for is unknown; push a new commit so that a run is made for this pull request into ${codeSpan(target.baseRef, 120)}`;
  }
  const mine = listed.filter((p) => p.number === target.number);
  if (mine.length === 0) {
    return `run ${run.id} was made for ${listed.map((p) => `#${p.number}`).join(", ")}, not for this pull request`;
  }
  const other = mine.find((p) => p.base_ref !== target.baseRef);
  if (other) {
    return `run ${run.id} was made while this pull request targeted ${codeSpan(other.base_ref, 120)}, so it ran that branch's workflow, not the one of ${codeSpan(target.baseRef, 120)}: a run counts only for the base it ran for; push a new commit so that a run is made for ${codeSpan(target.baseRef, 120)}`;
  }
  return null;
}

/** What the record says about where it was made, against GitHub's data and the base config. */
function recordMismatch(
  record: CommandRecord,
  input: ProvenanceInput,
  attempt: number,
): string | null {
  const { run } = input.run;
  const workflow = record.workflow;
  if (!workflow) return "it says it was made outside GitHub Actions";
  if (workflow.run_id !== run.id || workflow.run_attempt !== attempt) {
    return `it names run ${workflow.run_id} attempt ${workflow.run_attempt}, but it was uploaded in run ${run.id} attempt ${attempt}`;
  }
  if (workflow.event_name !== run.event) {
    // Everything in the record is the job's own word: shown as code, never as Markdown.
    return `it says event ${codeSpan(workflow.event_name, 60)}, GitHub says run ${run.id} ran on ${run.event}`;
  }
  if (record.repository !== input.repository) {
    return `it names repository ${codeSpan(record.repository ?? "(none)", 120)}, not ${input.repository}`;
  }
  const target = input.target;
  const claimed =
    target.kind === "pull_request" ? record.pull_request?.head_sha : record.merge_group?.head_sha;
  const other = target.kind === "pull_request" ? record.merge_group : record.pull_request;
  // A pull request's record was made under that event and its config read, not the queue's.
  if (other) {
    return target.kind === "pull_request"
      ? `it was made for a merge group, not for this pull request's head ${short(target.headSha)}`
      : `it was made for a pull request, not for the merge group ${short(target.headSha)}`;
  }
  if (claimed !== target.headSha) {
    return `it was made for ${claimed ? short(claimed) : `no ${target.kind.replace("_", " ")}`}, not for the head ${short(target.headSha)}`;
  }
  // The workflow must have read the same base config the App reads, or it ran other commands.
  if (record.grader.config_digest !== input.configDigest) {
    return `it was made under config digest ${record.grader.config_digest.slice(0, 12)}, the base config's is ${input.configDigest.slice(0, 12)}`;
  }
  const wanted = input.config.commands.map((c) => `${c.name}\n${c.run}`);
  const ran = record.commands.map((c) => `${c.name}\n${c.run}`);
  if (wanted.length !== ran.length || wanted.some((w, i) => w !== ran[i])) {
    return `its commands (${record.commands.map((c) => codeSpan(c.name, 80)).join(", ") || "none"}) are not the base config's (${input.config.commands.map((c) => c.name).join(", ")}), in order`;
  }
  return null;
}

/**
 * The tested commit must be GitHub's: the head itself, or (on pull_request) a test merge commit
 * GitHub reported for this head, whose second parent is the head; and its tree must be the one
 * GitHub has for it. A commit made in the job (a fake merge of base and head) is neither.
 */
function testedCommitProblem(record: CommandRecord, input: ProvenanceInput): string | null {
  const tested = record.tested.sha;
  const head = input.target.headSha;
  const github = input.run.tested_commit;
  const isHead = tested === head;
  const isMerge =
    input.target.kind === "pull_request" && input.target.mergeCommits.includes(tested);
  if (!isHead && !isMerge) {
    const known =
      input.target.kind === "pull_request" && input.target.mergeCommits.length > 0
        ? ` (GitHub's test merge for it: ${input.target.mergeCommits.map(short).join(", ")})`
        : "";
    return `it tested ${short(tested)}, which is neither the head ${short(head)} nor a test merge commit GitHub made for it${known}; if the base branch moved since the run, re-run the workflow`;
  }
  if (!github || github.sha !== tested) return `GitHub has no commit ${short(tested)}`;
  if (isMerge && github.parents[1] !== head) {
    return `GitHub says ${short(tested)} is not a merge of the head ${short(head)} (its parents: ${github.parents.map(short).join(", ") || "none"})`;
  }
  if (github.tree_sha !== record.tested.tree_sha) {
    return `it says the tree of ${short(tested)} is ${short(record.tested.tree_sha)}, GitHub says ${short(github.tree_sha)}`;
  }
  return null;
}

/** The commands must have run on the commit as checked out, and changed only what they may. */
function workTreeProblem(record: CommandRecord, config: Config): string | null {
  const { tested } = record;
  if (!tested.clean_before) {
    const dirty = tested.dirty_before.length > 0 ? paths(tested.dirty_before) : "paths not listed";
    return `the work tree already differed from ${short(tested.sha)} before the first command (${dirty}): an earlier step changed what was tested`;
  }
  return writesProblem(record, config);
}

/**
 * A command changed paths outside its `commands[].writes`, or more than the record lists: the
 * gate refuses such a record, and `run` (action/cli/main.ts) says so and fails the same way.
 */
export function writesProblem(record: CommandRecord, config: Config): string | null {
  for (const command of record.commands) {
    if (command.changed_paths_count === 0) continue;
    const spec = config.commands.find((c) => c.name === command.name);
    const allowed = spec?.writes ?? [];
    const matches = allowed.length > 0 ? picomatch(allowed, { dot: true }) : () => false;
    const outside = command.changed_paths.filter((path) => !matches(path));
    if (outside.length > 0) {
      return `command ${command.name} changed ${paths(outside)}, outside what it may write (commands[].writes): it did not test the commit as it is`;
    }
    if (command.changed_paths.length < command.changed_paths_count) {
      return `command ${command.name} changed ${command.changed_paths_count} paths, more than the record lists, so they cannot all be checked against commands[].writes`;
    }
  }
  return null;
}

/** Paths are the author's choice of text: each in a code span, at most five named. */
function paths(list: readonly string[]): string {
  const named = list.slice(0, 5).map((path) => codeSpan(path, 120));
  return `${named.join(", ")}${list.length > 5 ? ` and ${list.length - 5} more` : ""}`;
}

/** The verdict as the gate facts keep it, beside the run it is about. */
export function evidenceOf(fact: EvidenceRunFact, verdict: ProvenanceVerdict): CommandEvidence {
  return {
    run_id: fact.run.id,
    run_attempt: fact.job?.run_attempt ?? fact.run.run_attempt,
    run_url: fact.job?.html_url ?? fact.run.html_url,
    record: verdict.record,
    refused: verdict.status === "refused" ? verdict.reason : null,
    waiting: verdict.status === "waiting" ? verdict.reason : null,
  };
}
