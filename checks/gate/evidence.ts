/**
 * The evidence as the decision believes it: provenance's verdict (provenance.ts) on the run
 * gather read, made here, the first step of a pass's decision (plan.ts's decidePass, and
 * merge-group.ts's decideMergeGroupPass). gather hands over only what GitHub said (the workflow
 * at the base, the run, its job, artifacts, record and tested commit); no verdict crosses from
 * the reads, so what a pass believes is decided once, from facts stored beside the decision.
 */
import type { CommandRecord } from "../../schemas/command-record.js";
import type { CommandEvidence, GateFacts, GatheredFacts } from "../../schemas/gate.js";
import type { GatheredMergeGroupFacts, MergeGroupFacts } from "../../schemas/merge-group.js";
import { type EvidenceTarget, evidenceOf, verifyProvenance } from "./provenance.js";

type Judged = GateFacts["evidence"];

/** What provenance needs beside the run: the base config and what the change touches. */
type EvidenceInput = Pick<
  GatheredFacts,
  "config" | "evidence_source" | "evidence_run" | "changed_files" | "changed_files_listing"
>;

function judged(facts: EvidenceInput, target: EvidenceTarget, repository: string): Judged {
  const { config, evidence_source: source, evidence_run: run } = facts;
  // gather reads no run without a valid base config and the workflow it pins.
  if (config.status !== "ok" || source === null || run === null) return [];
  const verdict = verifyProvenance({
    target,
    repository,
    config: config.config,
    configDigest: config.digest,
    source,
    run,
    changedFiles: facts.changed_files,
    listing: facts.changed_files_listing,
  });
  return [evidenceOf(run, verdict)];
}

/** The verdict on a pull request's newest evidence run: at most one, the newest run decides. */
export function pullRequestEvidence(
  facts: EvidenceInput & Pick<GatheredFacts, "pull_request" | "merge_commits">,
): Judged {
  const pr = facts.pull_request;
  return judged(
    facts,
    {
      kind: "pull_request",
      number: pr.number,
      baseRef: pr.base_ref,
      headSha: pr.head_sha,
      mergeCommits: facts.merge_commits,
    },
    pr.repository,
  );
}

/**
 * The one rule for what the decision believes: a verdict with a record that provenance neither
 * refused nor waits on. The newest such verdict decides (older ones on the same head are history).
 * Every reader of "the believed record" (the requirements, the summary, the acceptance record,
 * the merge group, the read plan) asks here.
 */
export function believedEvidence(evidence: readonly CommandEvidence[]): BelievedEvidence | null {
  return evidence.findLast(isBelieved) ?? null;
}

type BelievedEvidence = CommandEvidence & { record: CommandRecord };

function isBelieved(e: CommandEvidence): e is BelievedEvidence {
  return e.record !== null && !e.refused && !e.waiting;
}

/** Whether the run's record is believed: what the trace reports beside it are bound by. */
export function believesRun(evidence: Judged, runId: number | undefined): boolean {
  const believed = believedEvidence(evidence);
  return believed !== null && believed.run_id === runId;
}

/**
 * A pull request's facts with the evidence judged. A verdict handed in with the facts is never
 * taken: the decision believes only what it judged. The trace reports stay only beside a
 * believed record (gather reads them only then: reads.ts `readsTrace`).
 */
export function judgedFacts(gathered: GatheredFacts): GateFacts {
  const evidence = pullRequestEvidence(gathered);
  const facts: GateFacts = { ...gathered, evidence };
  if (facts.trace && !believesRun(evidence, gathered.evidence_run?.run.id)) facts.trace = null;
  return facts;
}

/** A merge group's facts with the evidence judged, as judgedFacts does a pull request's. */
export function judgedMergeGroupFacts(gathered: GatheredMergeGroupFacts): MergeGroupFacts {
  const group = gathered.merge_group;
  const target: EvidenceTarget = { kind: "merge_group", headSha: group.head_sha };
  return { ...gathered, evidence: judged(gathered, target, group.repository) };
}
