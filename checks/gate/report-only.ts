/**
 * gate.report_only: a decision as what agate would decide, concluded neutral. GitHub counts
 * neutral as passing, so a gate being tried out never blocks a merge or a merge queue; the
 * decision itself stays whole (recorded, summarised) so people see what agate would do.
 */
import type { BaseConfigFact } from "../../schemas/gate.js";
import { cutTitle } from "../markdown.js";

export function reportOnly<D extends { state: string; conclusion: string | null; title: string }>(
  config: BaseConfigFact,
  decision: D,
): D | (D & { conclusion: "neutral" }) {
  const on = config.status === "ok" && config.config.gate.report_only;
  if (!on || decision.state === "not_gated") return decision;
  return {
    ...decision,
    conclusion: "neutral",
    title: cutTitle(`Report only, would be ${decision.state}: ${decision.title}`),
  };
}
