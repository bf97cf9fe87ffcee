/** Labels: on an issue or pull request, and the repository's own with their looks. */
import { at, list, type Repo, unless } from "./call.js";

export interface LabelFact {
  name: string;
  color: string;
  description: string | null;
}

export const labelFact = (l: {
  name: string;
  color: string;
  description?: string | null;
}): LabelFact => ({ name: l.name, color: l.color, description: l.description ?? null });

/**
 * Adds labels; GitHub creates a missing one with its default colour. Returns the labels as
 * GitHub now has them, so a caller can style one that had to be created, with no read first.
 */
export async function addLabels(r: Repo, number: number, labels: string[]): Promise<LabelFact[]> {
  r.count("issues/add-labels");
  const { data } = await r.client.rest.issues.addLabels({
    ...at(r),
    issue_number: number,
    labels,
  });
  return data.map(labelFact);
}

/** Removes a label; one already gone is no error. */
export async function removeLabel(r: Repo, number: number, name: string): Promise<void> {
  r.count("issues/remove-label");
  await unless([404], undefined, async () => {
    await r.client.rest.issues.removeLabel({ ...at(r), issue_number: number, name });
  });
}

/** Every label of the repository, with its look. */
export async function repositoryLabels(r: Repo): Promise<LabelFact[]> {
  const labels = await list(
    r,
    "issues/list-labels-for-repo",
    r.client.rest.issues.listLabelsForRepo,
    {},
  );
  return labels.map(labelFact);
}

/** Creates a label; false when one of that name exists already (someone was first). */
export async function createLabel(
  r: Repo,
  name: string,
  color: string,
  description: string,
): Promise<boolean> {
  r.count("issues/create-label");
  return unless([422], false, async () => {
    await r.client.rest.issues.createLabel({ ...at(r), name, color, description });
    return true;
  });
}

/** Gives a label its look (and its name, when `newName` differs). */
export async function styleLabel(
  r: Repo,
  name: string,
  color: string,
  description: string,
  newName?: string,
): Promise<void> {
  r.count("issues/update-label");
  await r.client.rest.issues.updateLabel({
    ...at(r),
    name,
    color,
    description,
    ...(newName !== undefined && newName !== name ? { new_name: newName } : {}),
  });
}
