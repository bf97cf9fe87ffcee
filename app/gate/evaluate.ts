import { createHash } from "node:crypto";
import { handEditedLabelComment, strayLabelComment } from "../../checks/gate/comments.js";
import { believedRecord, decideGate } from "../../checks/gate/decide.js";
import { renderGateSummary } from "../../checks/gate/render.js";
import type { AcceptanceRecordInput } from "../../schemas/acceptance-record.js";
import type { Config } from "../../schemas/config.js";
import { EVALUATOR_PROMPT_VERSION, type EvaluationInput } from "../../schemas/evaluation.js";
import type { GateDecision, GateFacts } from "../../schemas/gate.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { Store } from "../store/store.js";
import { askEvaluator, type EvaluatorDeps, evaluatorDue } from "./ask-evaluator.js";
import { EvidenceCache } from "./evidence.js";
import { type ConfigCache, gatherGateFacts, HeadMovedError } from "./gather.js";

/** The prefix of agate's labels: every label with it shows agate's state, and only that. */
const STATE_LABEL_PREFIX = "agate:";

/** The labels people filter on; each gated state has one, created with a colour on first use. */
export const STATE_LABELS: Record<string, { color: string; description: string }> = {
  "agate:accepted": { color: "0e8a16", description: "agate: every requirement passed on the head" },
  "agate:rejected": {
    color: "b60205",
    description: "agate: a requirement failed; see the agate check",
  },
  "agate:pending": { color: "fbca04", description: "agate: waiting for evidence on the head" },
  "agate:blocked": {
    color: "5319e7",
    description: "agate: blocked by something outside the pull request; the agate check says what",
  },
  "agate:capped": {
    color: "c5def5",
    description: "agate: a budget is spent; the agate check names it and how to raise it",
  },
  "agate:escalated": {
    color: "d93f0b",
    description: "agate: needs a maintainer (protected paths or a decision only a human can make)",
  },
};

export interface EvaluationResult {
  decision: GateDecision | null;
  /** Why nothing was decided, such as a closed pull request. */
  skipped: string | null;
  wroteCheck: boolean;
  storedRecord: boolean;
  calls: number;
}

const digestOf = (facts: GateFacts) =>
  facts.config.status === "ok"
    ? facts.config.digest
    : createHash("sha256")
        .update(facts.config.status === "invalid" ? facts.config.message : "")
        .digest("hex");

/**
 * Re-evaluates one pull request from live facts. Whatever event triggered it, the decision is
 * about the current head: a late or out-of-order event can only cause a fresh look at the head,
 * never change the check of a commit that is no longer the head.
 */
export async function evaluatePullRequest(options: {
  github: GitHubAdapter;
  store: Store;
  configs: ConfigCache;
  number: number;
  agateVersion: string;
  now: () => Date;
  /** How to reach the evaluator; absent: a configured llm or command evaluator is unavailable. */
  evaluator?: EvaluatorDeps;
  /** A person chose "Re-run evaluator". */
  rerunEvaluator?: boolean;
  /** Workflows and records already read (immutable once read); a fresh one when absent. */
  evidence?: EvidenceCache;
  /** The event matters only under some base configs (a workflow event of another workflow). */
  relevant?: (config: Config) => boolean;
}): Promise<EvaluationResult> {
  // A head that moves while facts are read makes them a mix of two commits: read again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await evaluateOnce(options);
    } catch (error) {
      if (!(error instanceof HeadMovedError) || attempt >= 3) throw error;
    }
  }
}

async function evaluateOnce(
  options: Parameters<typeof evaluatePullRequest>[0],
): Promise<EvaluationResult> {
  const { github, store, now } = options;
  const pr = await github.pullRequest(options.number);
  const skip = (skipped: string): EvaluationResult => ({
    decision: null,
    skipped,
    wroteCheck: false,
    storedRecord: false,
    calls: github.totalCalls,
  });
  if (pr.state !== "open") return skip(`#${pr.number} is closed`);
  if (options.relevant) {
    const base = await options.configs.read(github, pr.base_sha);
    if (base.status === "ok" && !options.relevant(base.config)) {
      return skip(`#${pr.number}: not the evidence workflow or job of its base config`);
    }
  }
  // A new head supersedes every record of other heads; they stay, marked stale.
  await store.markStale({
    repository: pr.repository,
    pullNumber: pr.number,
    supersededBy: pr.head_sha,
    at: now().toISOString(),
  });
  const facts = await gatherGateFacts({
    github,
    store,
    configs: options.configs,
    evidence: options.evidence ?? new EvidenceCache(),
    pullRequest: pr,
    agateVersion: options.agateVersion,
    now,
  });
  let decision = decideGate(facts);
  const externalId = `agate:${pr.repository}#${pr.number}@${pr.head_sha}`;
  let existing = await github.agateCheckRun(pr.head_sha);
  const config = facts.config.status === "ok" ? facts.config : null;
  const asks =
    config !== null &&
    (config.config.evaluator.kind === "llm" || config.config.evaluator.kind === "command");
  if (
    config &&
    asks &&
    deterministicChecksHold(decision) &&
    (await evaluatorDue({
      facts,
      config: config.config,
      store,
      rerun: options.rerunEvaluator ?? false,
    }))
  ) {
    // The evaluator may take minutes: say so on the check first, so nobody reads an old result.
    await github.writeAgateCheckIfChanged(pr.head_sha, existing, {
      conclusion: null,
      title: `Commands passed on ${pr.head_sha.slice(0, 7)}; the evaluator is judging tree ${(facts.head_tree_sha ?? "").slice(0, 7)}`,
      summary:
        "**Waiting: the evaluator is judging this commit.** Every required command passed; a fresh-context evaluator now reads the task, the diff, the command results and the handoff file.\n",
      externalId,
      rerunEvaluator: true,
    });
    existing = await github.agateCheckRun(pr.head_sha);
    facts.evaluation = options.evaluator
      ? await askEvaluator({
          github,
          store,
          facts,
          config: config.config,
          configDigest: config.digest,
          record: believedRecord(facts),
          deps: options.evaluator,
          now,
        })
      : {
          status: "judged",
          evaluation: await store.appendEvaluation(
            unavailableEvaluation(facts, config.digest, now),
          ),
        };
    decision = decideGate(facts);
  }
  const summary = renderGateSummary(decision, facts);
  const wrote = await github.writeAgateCheckIfChanged(pr.head_sha, existing, {
    conclusion: decision.conclusion,
    title: decision.title,
    summary,
    externalId,
    rerunEvaluator: asks,
  });
  const latest = facts.prior_records.filter((r) => r.head_sha === pr.head_sha).at(-1);
  if (decision.state !== "not_gated") {
    const fixed = await syncLabels(github, pr.number, pr.labels, `agate:${decision.state}`);
    // agate set this state's label before; if it is not as agate left it, a person changed it.
    if (fixed && latest?.state === decision.state) {
      await github.comment(
        pr.number,
        handEditedLabelComment(`agate:${decision.state}`, decision.title),
      );
    }
  } else {
    // A state label on a pull request agate does not gate is a lie someone (or a ruleset)
    // may read: it goes, with a comment saying why.
    const stray = pr.labels.filter((label) => label.startsWith(STATE_LABEL_PREFIX));
    for (const label of stray) await github.removeLabel(pr.number, label);
    if (stray.length > 0) {
      await github.comment(pr.number, strayLabelComment(stray, decision.title));
    }
  }
  const storedRecord = !latest || latest.state !== decision.state || wrote;
  if (storedRecord) {
    const input = recordInput(facts, decision, digestOf(facts), options.agateVersion, now);
    await store.appendRecord(input);
    await store.appendAudit({
      kind: "gate.decision",
      subject: `${pr.repository}#${pr.number}@${pr.head_sha}`,
      decision: JSON.parse(JSON.stringify(decision)),
      facts: JSON.parse(JSON.stringify(facts)),
      at: now().toISOString(),
    });
  }
  return {
    decision,
    skipped: null,
    wroteCheck: wrote,
    storedRecord,
    calls: github.totalCalls,
  };
}

/** Makes the agate:* labels show the state; says whether anything had to change. */
async function syncLabels(
  github: GitHubAdapter,
  number: number,
  current: string[],
  wanted: string,
): Promise<boolean> {
  let changed = false;
  for (const label of current) {
    // Every `agate:` label is agate's: one it does not use (agate:stalled today) is a lie too.
    if (label.startsWith(STATE_LABEL_PREFIX) && label !== wanted) {
      await github.removeLabel(number, label);
      changed = true;
    }
  }
  const style = STATE_LABELS[wanted];
  if (!style || current.includes(wanted)) return changed;
  await github.ensureLabel(wanted, style.color, style.description);
  await github.addLabels(number, [wanted]);
  return true;
}

function recordInput(
  facts: GateFacts,
  decision: GateDecision,
  configDigest: string,
  agateVersion: string,
  now: () => Date,
): AcceptanceRecordInput {
  const believed = facts.evidence.filter((e) => e.record && !e.refused && !e.waiting).at(-1);
  const shown = believed ?? facts.evidence.at(-1);
  const record = shown?.record ?? null;
  const evaluator = facts.config.status === "ok" ? facts.config.config.evaluator : null;
  const judged = facts.evaluation.status === "judged" ? facts.evaluation.evaluation : null;
  const verdict = judged?.outcome.status === "verdict" ? judged.outcome : null;
  return {
    repository: facts.pull_request.repository,
    pull_number: facts.pull_request.number,
    head_sha: facts.pull_request.head_sha,
    base_sha: facts.pull_request.base_sha,
    tested: record?.tested ?? null,
    commands: record?.commands ?? [],
    provenance: shown
      ? {
          workflow: record?.workflow ?? null,
          verified: shown === believed,
          refused_reason: shown.refused ?? shown.waiting,
        }
      : null,
    runner: record?.runner ?? null,
    grader: {
      agate_version: agateVersion,
      config_digest: configDigest,
      evaluator: evaluator
        ? {
            kind: evaluator.kind,
            provider: evaluator.kind === "llm" ? evaluator.provider : null,
            model: evaluator.kind === "llm" ? evaluator.model : null,
            prompt_version: judged?.run.prompt_version ?? null,
          }
        : null,
    },
    verdict: verdict?.verdict ?? null,
    verdict_by: verdictBy(facts),
    handoff: decision.handoff,
    override: decision.state === "accepted" ? facts.override : null,
    decision: {
      state: decision.state,
      reasons: [
        decision.title,
        ...decision.requirements.map((r) => `${r.name}: ${r.status}: ${r.reason}`),
        ...decision.reasons,
      ],
    },
    decided_at: now().toISOString(),
  };
}

/** The commands passed and the handoff file holds: only then is an evaluator call worth its cost. */
function deterministicChecksHold(decision: GateDecision): boolean {
  const status = (id: string) => decision.requirements.find((r) => r.id === id)?.status;
  return status("commands") === "pass" && status("handoff") === "pass";
}

/** Who gave the verdict the decision rests on, in words for the record. */
function verdictBy(facts: GateFacts): string | null {
  if (facts.evaluation.status === "judged") {
    const run = facts.evaluation.evaluation.run;
    return [run.kind, run.provider, run.model, run.prompt_version].filter(Boolean).join(" ");
  }
  const head = facts.pull_request.head_sha;
  const approval = facts.reviews.find(
    (r) => r.state === "APPROVED" && r.maintainer && r.commit_id === head,
  );
  return approval ? `review by ${approval.login}` : null;
}

/** No way to reach an evaluator was configured for this App: stored as a failure with the fix. */
function unavailableEvaluation(
  facts: GateFacts,
  configDigest: string,
  now: () => Date,
): EvaluationInput {
  return {
    repository: facts.pull_request.repository,
    pull_number: facts.pull_request.number,
    head_sha: facts.pull_request.head_sha,
    tree_sha: facts.head_tree_sha ?? facts.pull_request.head_sha,
    config_digest: configDigest,
    run: {
      kind: "llm",
      provider: null,
      model: null,
      prompt_version: EVALUATOR_PROMPT_VERSION,
      input_tokens: null,
      output_tokens: null,
      latency_ms: 0,
      requests: 0,
    },
    outcome: {
      status: "failed",
      error: "this agate process was started without an evaluator",
      fix: "start the App with `npm start` (which wires the evaluator from AGATE_EVALUATOR_* settings)",
    },
    at: now().toISOString(),
  };
}
