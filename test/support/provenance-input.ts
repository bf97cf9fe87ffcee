import type { ProvenanceInput } from "../../checks/gate/provenance.js";
import {
  commandRecord,
  evidenceRun,
  evidenceSource,
  HEAD,
  loadedConfig,
  MERGE,
} from "./gate-facts.js";

/**
 * What verifyProvenance reads for pull request #7 of octo/widgets into main: the base config
 * (CONFIG_TEXT), its pinned evidence workflow, an honest run of it for HEAD, and a change to
 * `src/a.ts` only. Each test replaces the part it plays an attack on.
 */
export function provenanceInput(overrides: Partial<ProvenanceInput> = {}): ProvenanceInput {
  const base = loadedConfig();
  return {
    target: {
      kind: "pull_request",
      number: 7,
      baseRef: "main",
      headSha: HEAD,
      mergeCommits: [MERGE],
    },
    repository: "octo/widgets",
    config: base.config,
    configDigest: base.digest,
    source: evidenceSource(),
    run: evidenceRun(commandRecord()),
    changedFiles: [{ filename: "src/a.ts", previous_filename: null, status: "modified" }],
    listing: { complete: true, reason: null },
    ...overrides,
  };
}
