/**
 * What the evaluator job is handed by the pass that asks (schemas/jobs/gate.ts
 * `evaluatorInputsSchema`): taken from that pass's facts, which agate read at the head and base it
 * decided on and verified (the believed record, its trace reports), so the job reads the pull
 * request no more and believes nothing the pass did not.
 */
import type { Config } from "../../schemas/config.js";
import type { GateFacts, PullRequestDetail } from "../../schemas/gate.js";
import type { EvaluatorInputs } from "../../schemas/jobs/gate.js";
import { believedRecord } from "../gate/requirements/commands.js";
import { bundleCommands, bundleTrace } from "./bundle.js";

/** null when the facts were never read to the end (no handoff facts): nothing is asked then. */
export function evaluatorInputs(
  facts: GateFacts,
  task: Pick<PullRequestDetail, "title" | "body">,
  config: Config,
): EvaluatorInputs | null {
  if (!facts.handoff) return null;
  return {
    base_sha: facts.pull_request.base_sha,
    base_ref: facts.pull_request.base_ref,
    title: task.title,
    body: task.body,
    commands: bundleCommands(
      believedRecord(facts)?.commands ?? [],
      config.budgets.evaluator_bundle_tokens,
    ),
    trace: bundleTrace(facts.trace),
    // Where the pass read it, not a rule of the job's own: the evaluator sees the file the pass
    // judged, or none when it read none (checks/gate/reads.ts `handoffReadAt`).
    handoff_sha: facts.handoff.read_at_sha ?? null,
    changed_files: facts.changed_files.map(({ filename, status }) => ({ filename, status })),
  };
}
