/**
 * agate's labels, made when the App is installed on a repository that has agate's config: every
 * label of checks/labels.ts is there with its look before a pull request or an entry needs one,
 * so no gate pass pays a call to style a label GitHub created grey. A label that exists under
 * another spelling is renamed to agate's and given its look. Running it again changes nothing
 * that is already right.
 *
 * A repository without `.github/agate.yml` on its default branch costs one read and nothing else:
 * an installation on all of a large organisation's repositories would otherwise spend a dozen
 * calls of its hourly limit on each, most of which agate never gates. Where the config comes
 * later, the gate and the entries make each label the first time they need it (apply.ts,
 * entry-job.ts), as they do for a repository created after the installation.
 */
import { AGATE_LABELS } from "../../checks/labels.js";
import { CONFIG_PATH } from "../../schemas/config.js";
import type { GitHubAdapter } from "../github/adapter.js";

export type RepositoryLabelsResult =
  | { config: false }
  | { config: true; created: string[]; styled: string[] };

export async function ensureRepositoryLabels(
  github: Pick<
    GitHubAdapter,
    "defaultBranchFile" | "repositoryLabels" | "createLabel" | "styleLabel"
  >,
): Promise<RepositoryLabelsResult> {
  // Only whether the file is there: an invalid config is still a repository agate gates (its
  // pull requests are blocked until the config is fixed), so it gets the labels too.
  if (!(await github.defaultBranchFile(CONFIG_PATH))) return { config: false };
  // GitHub matches label names without regard to case: `Agate:Blocked` is agate:blocked.
  const existing = new Map(
    (await github.repositoryLabels()).map((label) => [label.name.toLowerCase(), label]),
  );
  const created: string[] = [];
  const styled: string[] = [];
  for (const [name, style] of Object.entries(AGATE_LABELS)) {
    const found = existing.get(name);
    if (!found) {
      if (await github.createLabel(name, style.color, style.description)) {
        created.push(name);
        continue;
      }
    } else if (
      found.name === name &&
      found.color === style.color &&
      found.description === style.description
    ) {
      continue;
    }
    // Another spelling is renamed to agate's, so every comparison of names agrees.
    await github.styleLabel(found?.name ?? name, style.color, style.description, name);
    styled.push(name);
  }
  return { config: true, created, styled };
}
