/**
 * The escalation counters an entry is held to: `escalation` in `.github/agate.yml` on the default
 * branch (an issue has no base branch), the defaults when there is no config.
 */

import type { DefaultsRead, ExtendsRef } from "../../checks/config/extends.js";
import { configExtends, parseConfig } from "../../checks/config/parse-config.js";
import type { EscalationRules } from "../../checks/entries/machine.js";
import { ConfigurationError } from "../../checks/errors.js";
import { CONFIG_PATH, escalationSchema } from "../../schemas/config.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { readOrgDefaults } from "../github/org-defaults.js";

export interface RulesRead {
  rules: EscalationRules;
  /** Why the defaults are used instead of the file; null when the file was read. */
  problem: string | null;
}

export async function readEscalationRules(
  github: {
    defaultBranchFile(path: string): Promise<{ text: string } | null>;
  } & Partial<Pick<GitHubAdapter, "owner" | "fileOfRepository" | "defaultBranchComparison">>,
  /** The gate's remembered reader (ImmutableReads.orgDefaults); absent: read here each time. */
  readDefaults?: (ref: ExtendsRef) => Promise<DefaultsRead>,
): Promise<RulesRead> {
  const file = await github.defaultBranchFile(CONFIG_PATH);
  if (!file) return { rules: escalationSchema.parse(undefined), problem: null };
  try {
    // Organisation defaults (`extends`) are read as the gate reads them; unreadable ones make the
    // config invalid here too, and the defaults below apply.
    const owner = github.owner ?? null;
    const ref = configExtends(file.text, CONFIG_PATH, owner);
    const defaults = !ref
      ? undefined
      : readDefaults
        ? await readDefaults(ref)
        : github.fileOfRepository && github.defaultBranchComparison
          ? await readOrgDefaults(
              {
                fileOfRepository: github.fileOfRepository.bind(github),
                defaultBranchComparison: github.defaultBranchComparison.bind(github),
              },
              ref,
            )
          : undefined;
    const { config } = parseConfig(file.text, CONFIG_PATH, { owner, defaults });
    return { rules: config.escalation, problem: null };
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    // An invalid config must not stop entries: the defaults hold, and the log says why.
    return {
      rules: escalationSchema.parse(undefined),
      problem: `${CONFIG_PATH} on the default branch is invalid, so the escalation defaults apply: ${error.message}`,
    };
  }
}
