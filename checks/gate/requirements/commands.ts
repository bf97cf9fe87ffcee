/**
 * The required commands: the newest command record agate believes on the head decides; an
 * identical tree's acceptance may carry over; a tree that failed before is not graded again.
 */
import type { CommandRecord } from "../../../schemas/command-record.js";
import type { Config } from "../../../schemas/config.js";
import type { AttemptFact, GateFacts, PriorRecord } from "../../../schemas/gate.js";
import { commandPassed } from "../../command-results.js";
import { codeSpan, displayTail, durationText, shortSha as short } from "../../markdown.js";
import { believedEvidence } from "../evidence.js";
import { type Part, requirementOf } from "./part.js";

/** The commands requirement of a head whose tree is an earlier failed attempt's: not graded again. */
function replayedCommands(replay: AttemptFact): Part & { carriedOverFrom: number | null } {
  const total = replay.failures.length + replay.passed.length;
  const names = replay.failures.map((f) => f.name).join(", ");
  return {
    requirement: {
      id: "commands",
      name: "required commands",
      status: "fail",
      reason: `work tree unchanged since the failure at ${short(replay.head_sha)}: ${replay.failures.length} of ${total} required commands failed there (${names}); not graded again`,
    },
    items: [
      `Change the code, not only the commit: this tree failed at ${short(replay.head_sha)} (${names}); fix that failure (its output is below) and push`,
    ],
    carriedOverFrom: null,
  };
}

/** The newest record agate believes on the head: the one that decides. */
export function believedRecord(facts: Pick<GateFacts, "evidence">): CommandRecord | null {
  return believedEvidence(facts.evidence)?.record ?? null;
}

/**
 * What the gate waits for when no run of the evidence workflow has reported yet. Said as a fact,
 * not as "waiting for": the title already says Waiting, and names the head.
 */
function awaitedEvidence(config: Config): string {
  // Short enough for a title; the summary names the job and what to check (render.ts).
  return `no command record from ${config.evidence.workflow} for this commit yet`;
}

export function commandsRequirement(
  facts: GateFacts,
  replay: AttemptFact | null,
): Part & { carriedOverFrom: number | null } {
  if (replay) return replayedCommands(replay);
  const req = requirementOf("commands", "required commands");
  // The newest believed record decides; older ones on the same head are history.
  const verified = believedRecord(facts);
  if (verified) {
    const failed = verified.commands.filter((c) => !commandPassed(c));
    const total = verified.commands.length;
    return failed.length === 0
      ? {
          requirement: req("pass", `${total} of ${total} passed`),
          items: [],
          carriedOverFrom: null,
        }
      : {
          requirement: req(
            "fail",
            `${failed.length} of ${total} required commands failed (${failed.map((c) => c.name).join(", ")})`,
          ),
          // Names come from the base config (provenance checks the record's against it).
          items: failed.map(
            (c) =>
              `Make ${codeSpan(c.name, 80)} pass and push: ${
                c.timed_out
                  ? `it timed out after ${durationText(c.duration_ms)}`
                  : c.signal
                    ? `it was killed by ${c.signal}`
                    : `it exited ${c.exit_code}`
              }${displayTail(c.output.tail).trim() === "" ? ", printing nothing" : " (its last output is below)"}`,
          ),
          carriedOverFrom: null,
        };
  }
  const carried = carryOver(facts);
  if (carried) {
    return {
      requirement: req(
        "pass",
        `carried over from ${short(carried.head_sha)}, accepted on the identical tree ${short(carried.tree_sha ?? "")} under the same config and agate version`,
      ),
      items: [],
      carriedOverFrom: carried.id,
    };
  }
  // A run still going: nothing for anyone to do but wait, so no work item.
  const waiting = facts.evidence.find((e) => e.waiting);
  if (waiting?.waiting)
    return { requirement: req("waiting", waiting.waiting), items: [], carriedOverFrom: null };
  const refused = facts.evidence.find((e) => e.refused);
  if (refused?.refused) {
    return {
      requirement: req("waiting", `no believable command record: ${refused.refused}`),
      items: [
        'Fix what made agate refuse the command record (under "Not believed" below), then push or re-run the evidence workflow',
      ],
      carriedOverFrom: null,
    };
  }
  const config = facts.config.status === "ok" ? facts.config.config : null;
  return {
    requirement: req(
      "waiting",
      config ? awaitedEvidence(config) : "no command record for this commit yet",
    ),
    items: [],
    carriedOverFrom: null,
  };
}

/**
 * An acceptance may carry over to a new head only when nothing it judged changed: another SHA
 * with the same tree, under the same config digest and agate version, on the same base commit.
 * The same SHA coming back (a force-push back to it) is graded afresh, never resurrected. The
 * base commit too (issue 26): an acceptance computed while the pull request targeted another
 * branch (the agent's own, holding its workflow and a copy of the config, so the same digest)
 * was never this base's, and a new commit of the same tree must not inherit it.
 */
function carryOver(facts: GateFacts): PriorRecord | undefined {
  if (!facts.head_tree_sha || facts.config.status !== "ok") return undefined;
  const digest = facts.config.digest;
  return facts.prior_records.find(
    (r) =>
      r.state === "accepted" &&
      r.head_sha !== facts.pull_request.head_sha &&
      r.base_sha === facts.pull_request.base_sha &&
      r.tree_sha === facts.head_tree_sha &&
      r.config_digest === digest &&
      r.agate_version === facts.agate_version,
  );
}
