/**
 * What one gate pass writes, as a pure function of the facts, the one decision made on them and
 * what GitHub shows now: the `agate` check run (none when it already shows exactly this), the
 * state labels, comments, whether the decision is stored, and follow-up work (asking the
 * evaluator). app/gate/apply.ts carries it out in a fixed order; nothing decides twice.
 */
import type { GateDecision, GateFacts, PullRequestDetail } from "../../schemas/gate.js";
import type { EvaluatorJob } from "../../schemas/jobs/gate.js";
import { evaluatorInputs } from "../evaluator/inputs.js";
import { AGATE_LABELS, type LabelStyle } from "../labels.js";
import { GITHUB_TEXT_LIMIT, GITHUB_TITLE_LIMIT, shortSha as short } from "../markdown.js";
import { handEditedLabelComment, strayLabelComment } from "./comments.js";
import { renderGateSummary } from "./render.js";
import { evaluatorReady } from "./requirements/evaluator.js";
import { evaluatingStatus, gateStatus } from "./status.js";
import { statusBlock } from "./status-block.js";

/** The prefix of agate's labels: every label with it shows agate's state, and only that. */
export const STATE_LABEL_PREFIX = "agate:";

/** What earlier versions put on a pull request waiting for evidence. */
const LEGACY_PENDING_LABEL = "agate:pending";

/**
 * The labels people filter on: each state a pull request stays in until someone acts. `pending`
 * (waiting for evidence, minutes after every push) has none: the check shows it in progress, and
 * a label for it would cost two label writes and two webhooks per push. agate removes a
 * `agate:pending` left by earlier versions as it removes any other stray state label.
 */
export const STATE_LABELS: Record<string, LabelStyle> = Object.fromEntries(
  (
    [
      "agate:accepted",
      "agate:rejected",
      "agate:blocked",
      "agate:stalled",
      "agate:capped",
      "agate:escalated",
    ] as const
  ).map((name) => [name, AGATE_LABELS[name]]),
);

/** What the `agate` check run shows; `conclusion: null` keeps it in progress. */
export interface CheckView {
  conclusion: "success" | "failure" | "action_required" | "neutral" | null;
  title: string;
  summary: string;
  /** Offer "Re-run evaluator" (only where an evaluator is configured). */
  rerunEvaluator: boolean;
}

/** A write of the `agate` check run: what it shows, and the id that names its subject. */
export type CheckRunWrite = CheckView & { externalId: string };

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
    ? { ...view, externalId: `agate:${pr.repository}#${pr.number}@${pr.head_sha}` }
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
