/**
 * agate's labels, made when the App is installed on a repository: every label of checks/labels.ts
 * is there with its look before a pull request or an entry needs one, so no gate pass pays a call
 * to style a label GitHub created grey. A label that exists under another spelling is renamed to
 * agate's and given its look. Running it again changes nothing that is already right.
 */
import { AGATE_LABELS } from "../../checks/labels.js";
import type { GitHubAdapter } from "../github/adapter.js";

export async function ensureRepositoryLabels(
  github: Pick<GitHubAdapter, "repositoryLabels" | "createLabel" | "styleLabel">,
): Promise<{ created: string[]; styled: string[] }> {
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
  return { created, styled };
}
