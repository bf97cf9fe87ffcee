import picomatch from "picomatch";
import type { Config } from "../../schemas/config.js";
import type { PullRequestSnapshot } from "../../schemas/gate.js";
import { codeSpan } from "../markdown.js";

export interface GateSelection {
  gated: boolean;
  reason: string;
}

/**
 * Whether the base config gates this pull request. Any rule gates, none can ungate, and a pull
 * request once gated stays gated: the author can edit labels and the branch name, so those may
 * only widen the gate (removing the `agent` label must not free a pull request).
 */
export function selectGate(
  gate: Config["gate"],
  pr: PullRequestSnapshot,
  previouslyGated: boolean,
): GateSelection {
  if (previouslyGated)
    return { gated: true, reason: "gated earlier; a pull request once gated stays gated" };
  if (gate.all) return { gated: true, reason: "every pull request is gated (gate.all)" };
  const author = pr.author.login.toLowerCase();
  const listed = gate.authors.find((login) => login.toLowerCase() === author);
  if (listed) return { gated: true, reason: `author ${pr.author.login} is listed in gate.authors` };
  // GitHub treats label names case-insensitively (one repository cannot hold both spellings), so
  // a config naming `agent` must gate a pull request labelled `Agent`: comparing exactly failed open.
  const wanted = new Set(gate.labels.map((name) => name.toLowerCase()));
  const label = pr.labels.find((name) => wanted.has(name.toLowerCase()));
  if (label) return { gated: true, reason: `it carries the label ${label} (gate.labels)` };
  const branch = gate.branches.find((glob) => picomatch.isMatch(pr.head_ref, glob, { dot: true }));
  if (branch)
    return {
      gated: true,
      reason: `its branch ${codeSpan(pr.head_ref, 120)} matches ${branch} (gate.branches)`,
    };
  return {
    gated: false,
    reason:
      `not gated: author ${pr.author.login} is not in gate.authors, it has none of the labels ` +
      `${gate.labels.join(", ") || "(none configured)"}, and its branch ${codeSpan(pr.head_ref, 120)} matches none of ` +
      `${gate.branches.join(", ") || "(none configured)"}`,
  };
}
