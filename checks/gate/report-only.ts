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
  if (!reportOnlyOn(config) || decision.state === "not_gated") return decision;
  return { ...decision, conclusion: "neutral", title: reportOnlyTitle(decision.title) };
}

/** Whether the base config sets gate.report_only. */
export function reportOnlyOn(config: BaseConfigFact): boolean {
  return config.status === "ok" && config.config.gate.report_only;
}

/** The state word every enforced title starts with (decide.ts, merge-group.ts). */
const LEAD =
  /^(Accepted|Rejected|Waiting|Escalated|Stalled|Capped|Blocked)( on)?( merge group \S+?(?: \(#\d+\))?)?(?=[\s:]|$)/;

/**
 * The enforced title as what agate would decide, naming the state once and in the words of the
 * README's state table: "Rejected on 1111111: …" becomes "Report only: would be rejected on
 * 1111111: …", "Waiting on merge group 1111111: …" becomes "Report only: merge group 1111111
 * would be waiting: …".
 */
export function reportOnlyTitle(title: string): string {
  const lead = LEAD.exec(title);
  if (!lead) return cutTitle(`Report only: ${title}`);
  const [whole, state = "", on = "", group] = lead;
  const rest = title.slice(whole.length);
  const would = `would be ${state.toLowerCase()}`;
  return cutTitle(
    group ? `Report only:${group} ${would}${rest}` : `Report only: ${would}${on}${rest}`,
  );
}
