/**
 * Tests only: the agate App's `agate` check run on a simulator's pull request, as a gate pass
 * writes it (the summary with its status block at the end), from one of the summaries gallery's
 * facts; for the tests of what reads it (status, the hooks, the loop).
 */
import { decideGate } from "../../checks/gate/decide.js";
import { renderGateSummary } from "../../checks/gate/render.js";
import { gateStatus } from "../../checks/gate/status.js";
import { statusBlock } from "../../checks/gate/status-block.js";
import type { GateFacts } from "../../schemas/gate.js";
import type { GateStatus } from "../../schemas/gate-status.js";
import type { GitHubSimulator } from "../github/index.js";
import { galleryEntries } from "./summary-gallery.js";

/** The facts of the gallery's entry of this heading ("Accepted", "Rejected: a command failed"). */
export function galleryFacts(heading: string): GateFacts {
  const facts = galleryEntries().find((e) => e.heading === heading)?.facts;
  if (!facts) throw new Error(`the summaries gallery has no gate entry "${heading}"`);
  return facts;
}

/** Writes the App's check on `pull`'s head as decided on `facts`; returns its status block. */
export async function appCheck(
  sim: GitHubSimulator,
  repo: string,
  pull: { number: number; head: string },
  facts: GateFacts,
  app: "agate" | "github-actions" = "agate",
): Promise<GateStatus> {
  const decision = decideGate(facts);
  const gate = {
    ...gateStatus(decision, facts),
    repository: `${sim.owner}/${repo}`,
    pull_request: pull.number,
    head_sha: pull.head,
  };
  await sim.createCheckRun({
    repo,
    name: "agate",
    headSha: pull.head,
    app,
    ...(decision.conclusion
      ? { status: "completed" as const, conclusion: decision.conclusion }
      : { status: "in_progress" as const }),
    output: {
      title: decision.title,
      summary: `${renderGateSummary(decision, facts)}${statusBlock(gate)}`,
    },
  });
  return gate;
}
