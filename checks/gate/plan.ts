/**
 * What one gate pass writes, as a pure function of the facts, the one decision made on them and
 * what the pass saw besides (the check GitHub shows now, the stored mentions, the job it runs
 * in): `decidePass` decides, plans and lists the effects (schemas/effects.ts) that
 * app/gate/apply.ts carries out in the order listed, reading nothing. Nothing decides twice.
 */

import type { z } from "zod";
import type {
  CheckRunWrite,
  CheckView,
  GitHubEffect,
  PassSeen,
  PhasedEffects,
  StoreEffect,
} from "../../schemas/effects.js";
import type {
  GateDecision,
  GateFacts,
  GatheredFacts,
  PullRequestDetail,
} from "../../schemas/gate.js";
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import { ENTRY_JOBS } from "../../schemas/jobs/entries.js";
import { type EvaluatorJob, GATE_JOBS } from "../../schemas/jobs/gate.js";
import { type JobSpec, jobOf as newJob } from "../../schemas/jobs/index.js";
import { newJobSchema } from "../../schemas/store.js";
import { decisionConcernsDashboard } from "../dashboard/pulls.js";
import {
  decisionsAfterPass,
  entryPassesDue,
  gateHolds,
  sameMentions,
} from "../entries/priority.js";
import { evaluatorInputs } from "../evaluator/inputs.js";
import { STATE_LABELS } from "../labels.js";
import { GITHUB_TEXT_LIMIT, GITHUB_TITLE_LIMIT, shortSha as short } from "../markdown.js";
import { handEditedLabelComment, strayLabelComment } from "./comments.js";
import { decideGate } from "./decide.js";
import { judgedFacts } from "./evidence.js";
import { pullRequestExternalId } from "./external-id.js";
import { recordInput } from "./record.js";
import { renderGateSummary } from "./render.js";
import { evaluatorReady } from "./requirements/evaluator.js";
import { sightingOf } from "./sighting.js";
import { evaluatingStatus, gateStatus } from "./status.js";
import { statusBlock } from "./status-block.js";

export type { CheckRunWrite, CheckView };

/** The prefix of agate's labels: every label with it shows agate's state, and only that. */
export const STATE_LABEL_PREFIX = "agate:";

/** What earlier versions put on a pull request waiting for evidence. */
const LEGACY_PENDING_LABEL = "agate:pending";

export { STATE_LABELS };

/** The check as GitHub shows it now, when the App has one on the commit. */
export interface ExistingCheck {
  status: string;
  conclusion: string | null;
  title: string | null;
  summary: string | null;
}

export interface GatePlan {
  /** null: the check already shows exactly this. */
  check: CheckRunWrite | null;
  labels: { remove: string[]; add: string[] };
  comments: string[];
  /** Store a new acceptance record and the decision's audit entry. */
  storeDecision: boolean;
  /** Ask the evaluator about the head's tree in a job of its own, with what it is shown. */
  askEvaluator: EvaluatorAsk | null;
}

/** What the evaluator job is asked: the head's tree, and what it is shown (checks/evaluator/inputs.ts). */
type EvaluatorAsk = Pick<EvaluatorJob, "tree_sha" | "config_digest" | "rerun" | "inputs">;

function evaluatorAsk(input: Parameters<typeof planGatePass>[0]): EvaluatorAsk | null {
  const { facts } = input;
  if (facts.config.status !== "ok" || facts.head_tree_sha === null) return null;
  const inputs = evaluatorInputs(facts, input.task, facts.config.config);
  return inputs
    ? {
        tree_sha: facts.head_tree_sha,
        config_digest: facts.config.digest,
        rerun: input.rerunEvaluator,
        inputs,
      }
    : null;
}

/** Whether writing `wanted` would change what the check shows (an unchanged one costs nothing). */
export function checkChanges(existing: ExistingCheck | null, wanted: CheckView): boolean {
  const status = wanted.conclusion === null ? "in_progress" : "completed";
  return !(
    existing !== null &&
    existing.status === status &&
    (existing.conclusion ?? null) === wanted.conclusion &&
    existing.title === wanted.title.slice(0, GITHUB_TITLE_LIMIT) &&
    existing.summary === wanted.summary
  );
}

export function planGatePass(input: {
  facts: GateFacts;
  decision: GateDecision;
  existing: ExistingCheck | null;
  /** Nothing stored for the head's tree answers the evaluator, or a person asked again. */
  evaluatorDue: boolean;
  /** A person chose "Re-run evaluator". */
  rerunEvaluator: boolean;
  /** The pull request's words as the pass read them, for the evaluator. */
  task: Pick<PullRequestDetail, "title" | "body">;
}): GatePlan {
  const { facts, decision, existing } = input;
  const pr = facts.pull_request;
  const config = facts.config.status === "ok" ? facts.config : null;
  const asks =
    config !== null &&
    (config.config.evaluator.kind === "llm" || config.config.evaluator.kind === "command");
  // The cheap deterministic checks come first, as the decision read them.
  const ready = evaluatorReady(decision.requirements);
  const askEvaluator = asks && ready && input.evaluatorDue ? evaluatorAsk(input) : null;
  // While the evaluator judges (minutes, perhaps), the check says so: nobody reads an old result.
  // The verdict as data ends every summary (status-block.ts): agents read it, never the Markdown.
  const judging = askEvaluator
    ? `Commands passed on ${short(pr.head_sha)}; the evaluator is judging tree ${short(askEvaluator.tree_sha)}`
    : null;
  const block = statusBlock(
    judging ? evaluatingStatus(decision, facts, judging) : gateStatus(decision, facts),
  );
  const view: CheckView = judging
    ? {
        // Report-only concludes neutral while the evaluator judges, unless a pass is held here.
        conclusion: decision.report_only && !decision.held ? "neutral" : null,
        title: judging,
        summary: `**Waiting:** the evaluator is judging this commit. **Next:** Nothing to do yet: this check updates itself when its verdict is in.\n\nEvery required command passed; a fresh-context evaluator now reads the task, the diff, the command results and the handoff file.\n${block}`,
        rerunEvaluator: true,
      }
    : {
        conclusion: decision.conclusion,
        title: decision.title,
        summary: `${renderGateSummary(decision, facts, undefined, GITHUB_TEXT_LIMIT - block.length)}${block}`,
        rerunEvaluator: asks,
      };
  const check = checkChanges(existing, view)
    ? { ...view, externalId: pullRequestExternalId(pr) }
    : null;

  const latest = facts.prior_records.filter((r) => r.head_sha === pr.head_sha).at(-1);
  const comments: string[] = [];
  // GitHub matches label names without regard to case: `Agate:Blocked` is agate's label too.
  const agateLabels = pr.labels.filter((label) =>
    label.toLowerCase().startsWith(STATE_LABEL_PREFIX),
  );
  let labels: GatePlan["labels"];
  if (decision.state !== "not_gated" && !decision.report_only) {
    const named = `${STATE_LABEL_PREFIX}${decision.state}`;
    const wanted = STATE_LABELS[named] ? named : null;
    // Every `agate:` label is agate's: one that is not this state's is a lie, whoever set it.
    labels = {
      remove: agateLabels.filter((label) => label.toLowerCase() !== wanted),
      add: wanted && !agateLabels.some((label) => label.toLowerCase() === wanted) ? [wanted] : [],
    };
    // `agate:pending` is what earlier versions put on a waiting pull request: agate's own, not a
    // person's change, so it goes without a comment.
    const changed =
      labels.remove.some((label) => label !== LEGACY_PENDING_LABEL) || labels.add.length > 0;
    // agate set this state's label before; if it is not as agate left it, a person changed it.
    if (changed && latest?.state === decision.state) {
      comments.push(handEditedLabelComment(wanted, labels.remove, decision.title));
    }
  } else {
    // A state label on a pull request agate does not gate is a lie someone (or a ruleset)
    // may read: it goes, with a comment saying why.
    labels = { remove: agateLabels, add: [] };
    if (agateLabels.length > 0) comments.push(strayLabelComment(agateLabels, decision.title));
  }
  return {
    check,
    labels,
    comments,
    storeDecision: !latest || latest.state !== decision.state || check !== null,
    askEvaluator,
  };
}

/**
 * What decidePass makes of one pass: the facts with the evidence judged (stored beside the
 * decision), the decision, its plan (stored too) and the effects.
 */
export interface DecidedPass {
  facts: GateFacts;
  decision: GateDecision;
  plan: GatePlan;
  effects: PhasedEffects;
}

/**
 * The one call into checks/ after gather: the evidence judged from what gather read
 * (evidence.ts), the decision, what it writes, and the effects in the phases apply carries them
 * out in (schemas/effects.ts): the observations first, then GitHub's writes (check, labels,
 * comments), then the decision's audit entry and record, then the jobs it calls for.
 */
export function decidePass(gathered: GatheredFacts, seen: PassSeen): DecidedPass {
  const facts = judgedFacts(gathered);
  const decision = decideGate(facts);
  const plan = planGatePass({
    facts,
    decision,
    existing: seen.existing,
    evaluatorDue: seen.evaluator_due,
    rerunEvaluator: seen.rerun_evaluator,
    task: seen.view.detail,
  });
  const pr = facts.pull_request;
  const labelsLeft = [
    ...pr.labels.filter((label) => !plan.labels.remove.includes(label)),
    ...plan.labels.add,
  ];
  const after: StoreEffect[] = [];
  if (plan.storeDecision) after.push(...decisionEffects(facts, decision, plan, seen));
  // A retry cannot tell whether its first run stored a decision and stopped before queueing the
  // refresh (one queued per repository at a time): it is queued again then.
  const refresh = plan.storeDecision
    ? decisionConcernsDashboard(decision.state, facts.prior_records)
    : seen.retried;
  if (refresh) {
    after.push(
      enqueue(DASHBOARD_JOBS.refresh, {
        repository: pr.repository,
        installation: seen.installation,
        trigger: { event: "gate.decision", action: decision.state, delivery_id: null },
      }),
    );
  }
  after.push(...entryEffects(facts, decision.state, plan.storeDecision, seen));
  if (plan.askEvaluator) after.push(askEvaluatorEffect(facts, plan.askEvaluator, seen));
  const effects: PhasedEffects = {
    first: [observeEffect(facts, seen, labelsLeft)],
    github: githubEffects(facts, plan, seen, labelsLeft),
    after,
  };
  return { facts, decision, plan, effects };
}

/** The job to queue, as the store will hold it (defaults filled in). */
function jobOf<S extends z.ZodType>(spec: JobSpec<S>, payload: z.input<S>) {
  return newJobSchema.parse(newJob(spec, payload));
}

/** A job of `spec`, under the dedupe key its spec gives it (if any). */
function enqueue<S extends z.ZodType>(spec: JobSpec<S>, payload: z.input<S>): StoreEffect {
  return { kind: "enqueue", job: jobOf(spec, payload), dedupe: spec.dedupe?.(payload) ?? null };
}

/** The stale marks, the test merge commit, the head as seen, and the view acted on. */
function observeEffect(
  facts: GateFacts,
  seen: PassSeen,
  labelsLeft: readonly string[],
): StoreEffect {
  const pr = facts.pull_request;
  const at = seen.at;
  const where = { repository: pr.repository, pull_number: pr.number };
  return {
    kind: "observe",
    // A new head supersedes every record of other heads; they stay, marked stale.
    stale: { repository: pr.repository, pullNumber: pr.number, supersededBy: pr.head_sha, at },
    merge_commit: seen.merge_commit ? { ...where, ...seen.merge_commit, observed_at: at } : null,
    head: { ...where, ...seen.head, observed_at: at },
    sighting: { ...where, ...sightingOf(seen.view, labelsLeft), observed_at: at },
  };
}

/** The check, the labels and the comments (each written once however often the job runs). */
function githubEffects(
  facts: GateFacts,
  plan: GatePlan,
  seen: PassSeen,
  labelsLeft: readonly string[],
): GitHubEffect[] {
  const pr = facts.pull_request;
  const effects: GitHubEffect[] = [];
  if (plan.check) {
    effects.push({
      kind: "check",
      head_sha: pr.head_sha,
      existing: seen.existing,
      write: plan.check,
    });
  }
  const { remove, add } = plan.labels;
  // A retry restyles every state label it leaves on: its first run may have added one (GitHub
  // makes it grey) and stopped before styling it. The restyle is idempotent, and one write per
  // label costs no more than reading its look first would; a pass that is not a retry writes none.
  const restyle = seen.retried
    ? labelsLeft.filter((name) => STATE_LABELS[name] !== undefined && !add.includes(name))
    : [];
  if (remove.length > 0 || add.length > 0 || restyle.length > 0) {
    effects.push({ kind: "labels", number: pr.number, remove, add, restyle, styles: STATE_LABELS });
  }
  for (const [i, body] of plan.comments.entries()) {
    effects.push({ kind: "comment", number: pr.number, key: `comment:${i}`, body });
  }
  return effects;
}

/**
 * The decision's audit entry, then its acceptance record, each under the job's key. The audit
 * entry first: a retry that finds no record stores both, each once; one that finds the record
 * (so decides to store nothing) finds the audit entry too.
 */
function decisionEffects(
  facts: GateFacts,
  decision: GateDecision,
  plan: GatePlan,
  seen: PassSeen,
): StoreEffect[] {
  const pr = facts.pull_request;
  const once =
    seen.job_id === null ? null : `job:${seen.job_id}:gate@${pr.head_sha}:${decision.state}`;
  return [
    {
      kind: "audit",
      entry: {
        kind: "gate.decision",
        subject: `${pr.repository}#${pr.number}@${pr.head_sha}`,
        // The plan beside the decision: what this pass wrote, and why, can be replayed.
        decision: JSON.parse(JSON.stringify({ ...decision, plan })),
        facts: JSON.parse(JSON.stringify(facts)),
        at: seen.at,
      },
      dedupe_key: once,
    },
    { kind: "record", record: recordInput(facts, decision, seen.at), dedupe_key: once },
  ];
}

/**
 * The handoff entries whose priority this pass can change (docs/entries.md, "Priority"): their
 * passes, queued. When the description's mentions changed, they are stored with those passes in
 * one write (a crash stores both or neither, and a retry finds the mentions still changed), and
 * with this pull request's pass once more: an entry's own pass may have looked for the pull
 * requests mentioning it before these were stored, and so not queued this one. The next pass
 * finds the mentions unchanged and queues nothing more.
 */
function entryEffects(
  facts: GateFacts,
  state: GateDecision["state"],
  stored: boolean,
  seen: PassSeen,
): StoreEffect[] {
  const pr = facts.pull_request;
  const before = seen.mentioned_before;
  const now = seen.entry_mentions;
  const holdsBefore = gateHolds(facts.prior_records);
  const holdsAfter = gateHolds(
    decisionsAfterPass(facts.prior_records, pr.head_sha, stored ? state : null),
  );
  const due = entryPassesDue({
    pullNumber: pr.number,
    entries: seen.repository_entries,
    mentionedBefore: before,
    mentionedNow: now,
    holdsBefore,
    holdsAfter,
    retried: seen.retried,
  });
  const target = { repository: pr.repository, installation: seen.installation };
  const trigger = {
    event: "gate.decision",
    action: `#${pr.number} ${holdsAfter ? "holds" : "does not hold"}`,
    delivery_id: null,
  };
  const jobs = due.map((issue) =>
    jobOf(ENTRY_JOBS.entry, { ...target, issue_number: issue, trigger }),
  );
  if (sameMentions(before, now)) {
    return jobs.map((job) => ({ kind: "enqueue", job, dedupe: null }));
  }
  const again = jobOf(GATE_JOBS.pullRequest, {
    ...target,
    number: pr.number,
    trigger: { event: "entries.mention", action: "mentions stored", delivery_id: null },
  });
  return [
    {
      kind: "mentions",
      repository: pr.repository,
      pull_number: pr.number,
      issues: now,
      jobs: [...jobs, again],
    },
  ];
}

/**
 * The evaluator's job for the head's tree. Held under a key of the tree and config until it
 * starts: a pass made while the same tree is queued asks nothing more. Not until it finishes:
 * the running job queues the next pass before it ends, and that pass (or a head moved back to
 * this tree) must be able to ask again; a second job runs after the first (one key per pull
 * request) and finds its verdict stored, so it calls no model. A person's re-run has no key.
 */
function askEvaluatorEffect(
  facts: GateFacts,
  ask: NonNullable<GatePlan["askEvaluator"]>,
  seen: PassSeen,
): StoreEffect {
  const pr = facts.pull_request;
  const job = jobOf(GATE_JOBS.evaluator, {
    repository: pr.repository,
    installation: seen.installation,
    number: pr.number,
    head_sha: pr.head_sha,
    ...ask,
  });
  const dedupeKey = `gate.evaluator:${pr.repository}#${pr.number}@tree:${ask.tree_sha}:${ask.config_digest}`;
  return { kind: "enqueue", job, dedupe: ask.rerun ? null : { dedupeKey, until: "started" } };
}
