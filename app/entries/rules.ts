/**
 * The escalation counters an entry is held to: `escalation` in `.github/agate.yml` on the default
 * branch (an issue has no base branch), the defaults when there is no config.
 */
import { parseConfig } from "../../checks/config/parse-config.js";
import type { EscalationRules } from "../../checks/entries/machine.js";
import { ConfigurationError } from "../../checks/errors.js";
import { CONFIG_PATH, escalationSchema } from "../../schemas/config.js";

export interface RulesRead {
  rules: EscalationRules;
  /** Why the defaults are used instead of the file; null when the file was read. */
  problem: string | null;
}

export async function readEscalationRules(github: {
  defaultBranchFile(path: string): Promise<{ text: string } | null>;
}): Promise<RulesRead> {
  const file = await github.defaultBranchFile(CONFIG_PATH);
  if (!file) return { rules: escalationSchema.parse(undefined), problem: null };
  try {
    return { rules: parseConfig(file.text, CONFIG_PATH).config.escalation, problem: null };
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    // An invalid config must not stop entries: the defaults hold, and the log says why.
    return {
      rules: escalationSchema.parse(undefined),
      problem: `${CONFIG_PATH} on the default branch is invalid, so the escalation defaults apply: ${error.message}`,
    };
  }
}
