/**
 * The organisation defaults a base config extends (`extends: <owner>/.github:<path>@<sha>`), read
 * through the installation at the pinned commit, which must be on the `.github` repository's
 * default branch. What cannot be read or must not be used is said, with what to do, and the config
 * that extends it is invalid (the gate blocks): never the repository's file alone.
 */
import {
  type DefaultsRead,
  defaultsAt,
  defaultsWhere,
  type ExtendsRef,
  oversizedDefaults,
} from "../../checks/config/extends.js";
import type { GitHubAdapter } from "./adapter.js";

export type { DefaultsRead };

export async function readOrgDefaults(
  github: Pick<GitHubAdapter, "fileOfRepository" | "defaultBranchComparison">,
  ref: ExtendsRef,
): Promise<DefaultsRead> {
  const where = defaultsWhere(ref);
  const read = await github.fileOfRepository(ref.owner, ref.repo, ref.path, ref.sha);
  if (!read.ok) {
    if (read.status === 413) return oversizedDefaults(ref, read.message);
    return {
      unreadable:
        read.status === 404
          ? `GitHub answered 404 for ${where}: the file is not at that commit, or the agate App's installation cannot see ${ref.owner}/${ref.repo}. Check the path and the SHA, and install the App on ${ref.owner}/${ref.repo} too (or on all of ${ref.owner}'s repositories); it reads it with the contents: read it already has`
          : `GitHub answered ${read.status} (${read.message}) for ${where}: the agate App's installation needs contents: read on ${ref.owner}/${ref.repo}`,
    };
  }
  const compared = await github.defaultBranchComparison(ref.owner, ref.repo, ref.sha);
  if (!compared.ok) {
    return {
      unreadable: `GitHub answered ${compared.status} (${compared.message}) when agate asked whether ${ref.sha} is on ${ref.owner}/${ref.repo}'s default branch: the agate App's installation needs metadata: read and contents: read on ${ref.owner}/${ref.repo}`,
    };
  }
  return defaultsAt(ref, read.text, compared.compared);
}
