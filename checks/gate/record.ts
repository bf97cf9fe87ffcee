/**
 * The acceptance record of one decision (DESIGN.md, "The acceptance record"): what was tested,
 * the evidence shown and whether it was believed, the grader, the verdict and who gave it, the
 * decision and its reasons. Built from the facts and the decision alone; the `record` effect
 * carries it to the store.
 */
import { createHash } from "node:crypto";
import type { AcceptanceRecordInput } from "../../schemas/acceptance-record.js";
import type { GateDecision, GateFacts } from "../../schemas/gate.js";
import { believedEvidence } from "./evidence.js";

/** The config's digest; for a missing or invalid config, a digest of why. */
const digestOf = (facts: GateFacts) =>
  facts.config.status === "ok"
    ? facts.config.digest
    : createHash("sha256")
        .update(facts.config.status === "invalid" ? facts.config.message : "")
        .digest("hex");

export function recordInput(
  facts: GateFacts,
  decision: GateDecision,
  decidedAt: string,
): AcceptanceRecordInput {
  const believed = believedEvidence(facts.evidence);
  const shown = believed ?? facts.evidence.at(-1);
  const record = shown?.record ?? null;
  const evaluator = facts.config.status === "ok" ? facts.config.config.evaluator : null;
  const judged = facts.evaluation.status === "judged" ? facts.evaluation.evaluation : null;
  const verdict = judged?.outcome.status === "verdict" ? judged.outcome : null;
  const read = facts.evidence_run;
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
          run: read
            ? {
                id: read.run.id,
                attempt: read.run.run_attempt,
                job_complete: read.job?.status === "completed",
              }
            : null,
        }
      : null,
    runner: record?.runner ?? null,
    grader: {
      agate_version: facts.agate_version,
      config_digest: digestOf(facts),
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
      head_tree_sha: facts.head_tree_sha,
      replayed_from: decision.replayed_from ?? null,
      reasons: [
        decision.title,
        ...decision.requirements.map((r) => `${r.name}: ${r.status}: ${r.reason}`),
        ...decision.reasons,
      ],
    },
    decided_at: decidedAt,
  };
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
