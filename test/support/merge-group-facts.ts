import type { MergeGroupFacts } from "../../schemas/merge-group.js";
import { BASE, configFact, HEAD } from "./gate-facts.js";

/** The ref GitHub gives the merge queue's group for pull request #7 into main. */
export const GROUP_REF = "refs/heads/gh-readonly-queue/main/pr-7-abc";

/**
 * Facts for a merge group of octo/widgets (#7 into main, head HEAD on BASE) that changes
 * `src/a.ts` under the base config (CONFIG_TEXT), with no evidence yet and time left. A test
 * replaces what it needs: facts in `overrides`, the group itself in `group`.
 */
export function mergeGroupFacts(
  overrides: Partial<MergeGroupFacts> = {},
  group: Partial<MergeGroupFacts["merge_group"]> = {},
): MergeGroupFacts {
  return {
    merge_group: {
      repository: "octo/widgets",
      head_sha: HEAD,
      head_ref: GROUP_REF,
      base_sha: BASE,
      ...group,
    },
    config: configFact(),
    changed_files: [{ filename: "src/a.ts", previous_filename: null, status: "modified" }],
    changed_files_listing: { complete: true, reason: null },
    evidence_source: null,
    evidence_run: null,
    evidence: [],
    deadline_passed: false,
    agate_version: "0.1.0",
    ...overrides,
  };
}
