import type { GateFacts, Requirement } from "../../../schemas/gate.js";
import { codeSpan, shortSha as short } from "../../markdown.js";

/** The override requirement, when a maintainer accepted this exact head. */
export function overrideRequirement(facts: GateFacts): Requirement | null {
  const override = facts.override;
  if (!override) return null;
  return {
    id: "override",
    name: "maintainer override",
    status: "pass",
    reason: `${override.by} accepted ${short(facts.pull_request.head_sha)} at ${override.at}: ${codeSpan(override.reason)}`,
  };
}
