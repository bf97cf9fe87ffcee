/**
 * The pull request's stored acceptance records as the decision reads them: each as a prior
 * record (what was decided where, for carrying over and for "once gated, stays gated"), and the
 * graded attempts among them (checks/gate/progress.ts). Pure: the read plan makes them facts
 * (checks/gate/reads.ts `storedFacts`) from the records gather read.
 */
import type { AcceptanceRecord } from "../../schemas/acceptance-record.js";
import type { AttemptFact, PriorRecord } from "../../schemas/gate.js";
import { outcomePassed } from "../command-results.js";
import { failuresOf } from "./progress.js";

/** What a decision needs of an earlier record of the pull request. */
export function priorRecordOf(record: AcceptanceRecord): PriorRecord {
  return {
    id: record.id,
    head_sha: record.head_sha,
    base_sha: record.base_sha,
    tree_sha: record.tested?.tree_sha ?? null,
    state: record.decision.state,
    config_digest: record.grader.config_digest,
    agate_version: record.grader.agate_version,
    decided_at: record.decided_at,
    stale: record.stale,
  };
}

/**
 * The pull request's earlier graded attempts (heads other than `head`), oldest first: a head's
 * newest record with a believed command record, or one that replayed an earlier failure (its
 * failures are that attempt's).
 */
export function attemptsOf(records: readonly AcceptanceRecord[], head: string): AttemptFact[] {
  const attempts = new Map<string, AttemptFact>();
  for (const r of records) {
    if (r.head_sha === head) continue;
    const replayed = r.decision.replayed_from ?? null;
    const source = replayed ? attempts.get(replayed) : undefined;
    const believed = r.provenance?.verified === true && r.commands.length > 0;
    if (!source && !believed) continue;
    attempts.set(r.head_sha, {
      head_sha: r.head_sha,
      head_tree_sha: r.decision.head_tree_sha ?? null,
      base_sha: r.base_sha,
      config_digest: r.grader.config_digest,
      agate_version: r.grader.agate_version,
      failures: source ? source.failures : failuresOf(r.commands),
      passed: source ? source.passed : r.commands.filter(outcomePassed).map((c) => c.name),
      missing: source ? source.missing : (r.verdict?.missing ?? null),
      replayed_from: source ? source.head_sha : null,
      decided_at: r.decided_at,
    });
  }
  return [...attempts.values()];
}
