import type { Config } from "../../../schemas/config.js";
import type { GateFacts } from "../../../schemas/gate.js";
import { codeSpan, shortSha as short } from "../../markdown.js";
import { overrideCommand } from "../listing.js";
import { protectedChanges } from "../protected-paths.js";
import { type Part, partOf } from "./part.js";

/**
 * A protected path changed: a maintainer's approving review of this exact commit, or a wait for
 * one. A listing that may have been cut could hide any protected path, so it waits too.
 */
export function protectedRequirement(facts: GateFacts, config: Config): Part {
  const changed = protectedChanges(facts.changed_files, config);
  const req = partOf("protected_paths", "protected paths");
  const head = facts.pull_request.head_sha;
  // A listing that may have been cut could hide any protected path: not decidable, so a
  // maintainer decides, on this exact commit.
  if (!facts.changed_files_listing.complete) {
    return req(
      "waiting",
      `${facts.changed_files_listing.reason ?? "the file list is incomplete"}; only a maintainer can accept this exact commit`,
      [`Ask a maintainer to accept this exact commit with \`${overrideCommand(head)}\``],
    );
  }
  if (changed.length === 0) return req("pass", "no protected path changed");
  const approval = facts.approvals.find((a) => a.maintainer && a.commit_id === head);
  // Paths are the author's text: each one a code span, so none is read as Markdown or a mention.
  const list = changed.map((path) => codeSpan(path, 120)).join(", ");
  if (approval)
    return req("pass", `${list} changed; approved by ${approval.login} on ${short(head)}`);
  const stale = facts.approvals.find((a) => a.maintainer);
  const note = stale
    ? ` (${stale.login}'s approval is for ${short(stale.commit_id)}, an older commit)`
    : "";
  return req(
    "waiting",
    `changes ${list}: needs a maintainer's approving review of this commit${note}`,
    [`Ask a maintainer to review and approve ${short(head)}, which changes ${list}`],
  );
}
